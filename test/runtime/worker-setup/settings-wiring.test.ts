// Settings reaching what they configure, not just their parser: AGENT_MAX_CACHED_WORKFLOWS in the
// Temporal Worker's own options, AGENT_PROMPT_CACHE in the request the Messages API receives, and
// TEMPORAL_TASK_QUEUE on the queue `npm run worker` (src/worker.ts, a real process) polls.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startRun } from '../../../src/client/start-run';
import { parseWorkerSettings } from '../../../src/runtime/config/worker-settings';
import { createAgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';
import { tempWorkspace, waitFor, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { newClient, temporalAddress, uniqueId } from '../../support/temporal';

const repoRoot = path.resolve(__dirname, '../../..');
const bed = useAgentTestbed();
const done = () => reply(toolCall('complete_task', { summary: 'done', status: 'success' }));

/** A worker built from `env` alone (as `npm run worker` builds it), closed again without polling. */
async function workerFrom(env: NodeJS.ProcessEnv) {
  return createAgentWorker({
    address: temporalAddress(),
    taskQueue: uniqueId('q-settings'),
    workspaceRoot: await tempWorkspace(),
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: bed.fake.baseUrl, ...env },
    workflowBundle: bed.harness().workflowBundle,
    auditLog: false,
  });
}

/** The environment of a worker process whose files all live in `dir`, talking to the fake model. */
function workerEnv(dir: string): NodeJS.ProcessEnv {
  return {
    TEMPORAL_ADDRESS: temporalAddress(),
    ANTHROPIC_API_KEY: 'sk-test-secret-key',
    ANTHROPIC_BASE_URL: bed.fake.baseUrl,
    AGENT_WORKSPACE: path.join(dir, 'workspace'),
    AGENT_AUDIT_DIR: path.join(dir, 'audit'),
    AGENT_AUDIT_HEAD_DIR: path.join(dir, 'heads'),
  };
}

/** `npm run worker` as a process, detached so its group (tsx and its node child) stops together. */
function spawnWorker(env: NodeJS.ProcessEnv) {
  const { TEMPORAL_TASK_QUEUE: _queue, ...inherited } = process.env;
  const child = spawn(path.join(repoRoot, 'node_modules/.bin/tsx'), ['src/worker.ts'], { cwd: repoRoot, env: { ...inherited, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    child,
    exited,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGINT');
      await exited;
    },
  };
}

describe('settings wiring', () => {
  it('AGENT_MAX_CACHED_WORKFLOWS becomes the Temporal worker\'s maxCachedWorkflows', async () => {
    const bounded = await workerFrom({ AGENT_MAX_CACHED_WORKFLOWS: '7' });
    const unbounded = await workerFrom({});
    try {
      expect(bounded.worker.options.maxCachedWorkflows).toBe(7);
      // Unset, the SDK sizes the cache from the heap: something other than the value above.
      expect(unbounded.worker.options.maxCachedWorkflows).not.toBe(7);
    } finally {
      // A Temporal worker holds its connection until it has run and shut down.
      for (const built of [bounded, unbounded]) {
        await built.worker.runUntil(Promise.resolve());
        await built.close();
      }
    }
  });

  it('takes settings already parsed, and then does not read the environment again', async () => {
    const settings = parseWorkerSettings({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: bed.fake.baseUrl, AGENT_MAX_CACHED_WORKFLOWS: '3' });
    const taskQueue = uniqueId('q-settings');
    const built = await createAgentWorker({
      address: temporalAddress(),
      taskQueue,
      workspaceRoot: await tempWorkspace(),
      settings,
      // Were this read, the worker would refuse to start.
      env: { AGENT_MAX_CACHED_WORKFLOWS: 'not read' },
      workflowBundle: bed.harness().workflowBundle,
    });
    try {
      // The parsed settings are used as they are, under the connection options the call gave.
      const { temporal, ...rest } = built.settings;
      const { temporal: parsedTemporal, ...parsedRest } = settings;
      expect(rest).toEqual(parsedRest);
      expect(temporal).toEqual({ ...parsedTemporal, address: temporalAddress(), taskQueue, connection: { ...parsedTemporal.connection, address: temporalAddress() }, source: 'options' });
      expect(built.worker.options.maxCachedWorkflows).toBe(3);
    } finally {
      await built.worker.runUntil(Promise.resolve());
      await built.close();
    }
  });

  it('AGENT_PROMPT_CACHE=1h puts an hour-long cache_control on the request the model receives', async () => {
    const task = uniqueId('cache-1h');
    bed.fake.script(task, [done()]);
    const result = await withAgentWorker({ ...bed.harness(), env: { AGENT_PROMPT_CACHE: '1h' } }, async ({ start }) => (await start({ agent: 'general', task })).result());
    expect(result.status).toBe('completed');
    const [request] = bed.fake.requestsFor(task);
    expect(request!.wire.system).toEqual([expect.objectContaining({ cache_control: { type: 'ephemeral', ttl: '1h' } })]);
    expect(request!.wire.tools!.at(-1)).toMatchObject({ cache_control: { type: 'ephemeral', ttl: '1h' } });
  });

  it('`npm run worker` polls TEMPORAL_TASK_QUEUE, prints its settings once with secrets masked, and warns of a misspelt AGENT_ variable', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'worker-settings-'));
    const taskQueue = uniqueId('q-env');
    const task = uniqueId('queue');
    bed.fake.script(task, [done()]);
    const worker = spawnWorker({ ...workerEnv(dir), TEMPORAL_TASK_QUEUE: taskQueue, AGENT_PROMPT_CAHCE: '1h' });
    const client = await newClient();
    try {
      await waitFor(async () => (worker.output().includes('Worker polling') || worker.child.exitCode !== null ? true : undefined), 'the worker to start', 60_000);
      const output = worker.output();
      expect(output).toContain(`Worker polling task queue "${taskQueue}"`);
      expect(output).toContain(`  TEMPORAL_TASK_QUEUE: ${taskQueue}\n`);
      expect(output).toContain('  ANTHROPIC_API_KEY: set (…-key)\n');
      expect(output).toContain('AGENT_PROMPT_CAHCE is set, but the worker reads no such variable; it is ignored. Did you mean AGENT_PROMPT_CACHE?');
      expect(output.split('Settings:').length - 1).toBe(1);
      const handle = await startRun(client, { agent: 'general', task }, { taskQueue, workflowId: uniqueId('run') });
      expect((await handle.result()).status).toBe('completed');
      expect(worker.output()).not.toContain('sk-test-secret-key');
    } finally {
      await worker.stop();
      await client.connection.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('`npm run worker` refuses bad values before it polls, naming each variable and what to do', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'worker-settings-'));
    const worker = spawnWorker({ ...workerEnv(dir), AGENT_PROMPT_CACHE: '2h', AGENT_MAX_CACHED_WORKFLOWS: 'lots' });
    try {
      expect(await worker.exited).toBe(1);
      const output = worker.output();
      expect(output).toContain('AGENT_PROMPT_CACHE="2h" must be 5m (or on), 1h or off.');
      expect(output).toContain('AGENT_MAX_CACHED_WORKFLOWS="lots" must be a whole number (0 or more)');
      expect(output).toContain('see the configuration table in README.md');
      expect(output).not.toContain('Worker polling');
    } finally {
      await worker.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('createAgentWorker refuses a bad AGENT_PROMPT_CACHE before connecting anything', async () => {
    await expect(workerFrom({ AGENT_PROMPT_CACHE: 'forever' })).rejects.toThrow(/AGENT_PROMPT_CACHE="forever" must be 5m \(or on\), 1h or off/);
  });
});
