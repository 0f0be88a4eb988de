import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../src/testing/temporal-dev-server';
import { uniqueId } from '../support/temporal';

function portAcceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function withConnection<T>(server: DevServer, fn: (connection: Connection) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({ address: server.address });
  try {
    return await fn(connection);
  } finally {
    await connection.close();
  }
}

// These tests start servers of their own rather than using the shared one, because they stop them.
describe('startDevServer', () => {
  const started: DevServer[] = [];
  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
  });

  it('serves gRPC with the default search attributes, and frees its port on stop', async () => {
    const server = await startDevServer({ headless: true });
    started.push(server);
    await withConnection(server, async (connection) => {
      const info = await connection.workflowService.getSystemInfo({});
      expect(info.capabilities).toBeTruthy();
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace: 'default' });
      expect(Object.keys(customAttributes)).toEqual(expect.arrayContaining(['AgentName', 'AgentStatus']));
    });
    await server.stop();
    expect(server.process.exitCode ?? server.process.signalCode).not.toBeNull();
    expect(await portAcceptsConnections(server.port)).toBe(false);
  });

  // What the values do is measured side by side by bench:overhead and bench:approval; here, that they reach the server.
  it('raises the history queue readers\' rate by default, and a null keeps the server\'s own value', async () => {
    const server = await startDevServer({ headless: true, dynamicConfig: { 'history.timerProcessorMaxPollRPS': null, 'system.enableActivityEagerExecution': true } });
    started.push(server);
    const values = server.process.spawnargs.filter((_, i, args) => args[i - 1] === '--dynamic-config-value');
    expect(values.sort()).toEqual(['history.transferProcessorMaxPollRPS=1000', 'history.visibilityProcessorMaxPollRPS=1000', 'system.enableActivityEagerExecution=true']);
    await withConnection(server, async (connection) => expect(await connection.workflowService.getSystemInfo({})).toBeTruthy());
  });

  it('keeps workflows in its database file across restart()', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'durable-agent-devserver-'));
    try {
      const server = await startDevServer({ headless: true, dbFilename: path.join(dir, 'temporal.db') });
      started.push(server);
      const workflowId = uniqueId('survives-restart');
      // No worker polls this queue, so the workflow simply stays open: enough to prove persistence.
      await withConnection(server, (connection) =>
        new Client({ connection }).workflow.start('neverRuns', { taskQueue: uniqueId('nobody'), workflowId }),
      );
      await server.restart();
      const description = await withConnection(server, (connection) =>
        new Client({ connection }).workflow.getHandle(workflowId).describe(),
      );
      expect(description.status.name).toBe('RUNNING');
      await server.stop();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
