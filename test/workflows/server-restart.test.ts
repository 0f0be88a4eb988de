// The README promises that the event history is the checkpoint: a run parked on an approval and a run
// in the middle of its loop both survive the Temporal server crashing (SIGKILL, same database file)
// and then finish, with the same worker still running and nothing done twice.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../scripts/temporal-dev-server';
import { approvalSignal, statusQuery } from '../../src/contract/agent-run-api';
import { waitFor, waitForApprovals, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

describe('a Temporal server crash and restart', () => {
  const bed = useAgentTestbed();
  let server: DevServer;
  let dbDir: string;

  beforeAll(async () => {
    dbDir = await mkdtemp(path.join(tmpdir(), 'restart-db-'));
    server = await startDevServer({ headless: true, dbFilename: path.join(dbDir, 'temporal.db') });
  });

  afterAll(async () => {
    await server?.stop();
    await rm(dbDir, { recursive: true, force: true });
  });

  it('keeps a parked run and a run in the middle of a tool call; both finish afterwards, each step once', async () => {
    const parkedTask = uniqueId('parked');
    const busyTask = uniqueId('busy');
    const complete = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));
    bed.fake.script(parkedTask, [reply(toolCall('write_file', { path: 'parked.txt', content: 'approved' })), complete('parked done')]);
    // The command marks that it started, appends one line per execution, and then waits for the
    // test's go-ahead: the server is killed while it is surely running.
    const command = 'echo run >> busy.log; while [ ! -e go ]; do sleep 0.1; done; echo finished';
    bed.fake.script(busyTask, [reply(toolCall('shell', { command })), complete('busy done')]);

    await withAgentWorker({ ...bed.harness(), address: server.address }, async ({ start, workspace }) => {
      const parked = await start({ agent: 'general', task: parkedTask });
      await waitForApprovals(parked);
      // The command appends to busy.log, so its rule grants writes.
      const busy = await start({ agent: 'general', task: busyTask, toolApproval: { alwaysApproved: [{ tool: 'shell', writes: true }] } });
      await waitFor(async () => (existsSync(path.join(workspace, 'busy.log')) ? true : undefined), 'the shell command to start');

      await server.restart({ kill: true });

      // After the restart the server still knows both runs, where they stood.
      const parkedStatus = await parked.query(statusQuery);
      expect(parkedStatus.phase).toBe('waiting_approval');
      expect(parkedStatus.pendingApprovals.map((p) => p.tool)).toEqual(['write_file']);
      expect((await busy.query(statusQuery)).phase).toBe('running');

      await writeFile(path.join(workspace, 'go'), '');
      await parked.signal(approvalSignal, { callId: parkedStatus.pendingApprovals[0]!.callId, decision: 'approve', approver: 'alice' });
      expect(await busy.result()).toMatchObject({ status: 'completed', completion: { summary: 'busy done' } });
      expect(await parked.result()).toMatchObject({ status: 'completed', completion: { summary: 'parked done' } });

      expect(await readFile(path.join(workspace, 'busy.log'), 'utf8')).toBe('run\n');
      expect(await readFile(path.join(workspace, 'parked.txt'), 'utf8')).toBe('approved');
      // Each run asked the model exactly twice: no turn was repeated.
      expect(bed.fake.requestsFor(parkedTask)).toHaveLength(2);
      expect(bed.fake.requestsFor(busyTask)).toHaveLength(2);
    });
  });
});
