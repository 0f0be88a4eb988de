import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import * as path from 'node:path';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRun } from '../../src/client/start-run';
import { statusQuery } from '../../src/workflows/definitions';
import { tempWorkspace, waitFor } from '../support/agent-run-harness';
import { reply, startFakeAnthropic, toolCall, type FakeAnthropic } from '../support/fake-anthropic';
import { newClient, temporalAddress, uniqueId } from '../support/temporal';

const repoRoot = path.resolve(__dirname, '../..');
const STARTED = temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED;

interface WorkerProcess {
  child: ChildProcess;
  output: string[];
}

/**
 * `npm run worker` as a real process. Detached, so it leads its own process group: tsx runs the
 * worker in a child node process, and killing only tsx's pid would leave that child polling.
 */
function spawnWorker(env: NodeJS.ProcessEnv): WorkerProcess {
  const child = spawn(path.join(repoRoot, 'node_modules/.bin/tsx'), ['src/worker.ts'], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { child, output };
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Kills the worker's whole process group at once: no shutdown, no draining, like a machine dying. */
async function killGroup(worker: WorkerProcess): Promise<void> {
  const pid = worker.child.pid;
  if (pid === undefined || !groupAlive(pid)) return;
  process.kill(-pid, 'SIGKILL');
  await waitFor(async () => (groupAlive(pid) ? undefined : true), `worker group ${pid} to die`, 5_000);
}

describe('a worker process killed during a tool call', () => {
  let fake: FakeAnthropic;
  let client: Client;

  beforeAll(async () => {
    [fake, client] = await Promise.all([startFakeAnthropic(), newClient()]);
  });
  afterAll(async () => {
    await client.connection.close();
    await fake.close();
  });

  it('is replaced by a new worker that finishes the run without repeating completed steps', async () => {
    const task = uniqueId('crash');
    fake.script(task, [
      reply(toolCall('shell', { command: 'echo step1 >> marks.txt' })),
      reply(toolCall('shell', { command: 'sleep 6; echo step2 >> marks.txt' })),
      reply(toolCall('complete_task', { summary: 'both steps ran', status: 'success' })),
    ]);
    const [workspace, logs] = await Promise.all([tempWorkspace(), tempWorkspace()]);
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      TEMPORAL_TASK_QUEUE: uniqueId('crash-q'),
      ANTHROPIC_API_KEY: 'test',
      ANTHROPIC_BASE_URL: fake.baseUrl,
      AGENT_WORKSPACE: workspace,
      // The worker's audit log defaults to its working directory, the repository: keep it out.
      AGENT_AUDIT_LOG: path.join(logs, 'audit.log'),
    };
    const workers: WorkerProcess[] = [spawnWorker(env)];
    try {
      const handle = await startRun(
        client,
        { agent: 'general', task, toolApproval: { alwaysApproved: ['shell'] } },
        { taskQueue: env.TEMPORAL_TASK_QUEUE, workflowId: uniqueId('crash-run') },
      );
      // The turn-2 shell call is running on the worker: the run is in iteration 2 (so turn 1's call is
      // done) and a tool activity has been picked up.
      await waitFor(
        async () => {
          if ((await handle.query(statusQuery)).iteration < 2) return undefined;
          const pending = (await handle.describe()).raw.pendingActivities ?? [];
          return pending.some((a) => a.activityType?.name === 'runTool' && a.state === STARTED) ? true : undefined;
        },
        'the slow shell call to start',
        60_000,
      );
      const before = await handle.query(statusQuery);
      expect(before.iteration).toBe(2);
      expect(before.recentToolCalls).toMatchObject([{ tool: 'shell', summary: 'shell: echo step1 >> marks.txt', outcome: 'success' }]);

      await killGroup(workers[0]!);
      workers.push(spawnWorker(env));

      const result = await handle.result();
      expect(result.status).toBe('completed');
      expect(result.completion?.summary).toBe('both steps ran');
      expect(result.iterations).toBe(3);

      const marks = (await readFile(path.join(workspace, 'marks.txt'), 'utf8')).trim().split('\n');
      expect(marks.filter((m) => m === 'step1')).toHaveLength(1);
      expect(marks[0]).toBe('step1');
      expect(marks).toContain('step2');
      // Model calls that had completed before the kill were not made again.
      const requests = fake.requestsFor(task);
      expect(requests.filter((r) => r.index === 0)).toHaveLength(1);
      expect(requests.filter((r) => r.index === 1)).toHaveLength(1);
      expect(fake.errors).toEqual([]);

      // The retried tool call ran on the new worker (attempt 2), not again on the dead one.
      const events = (await handle.fetchHistory()).events ?? [];
      const toolCalls = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool');
      expect(toolCalls).toHaveLength(2);
      const slowCallId = String(toolCalls[1]!.eventId);
      const slowStart = events.find((e) => String(e.activityTaskStartedEventAttributes?.scheduledEventId) === slowCallId);
      expect(slowStart?.activityTaskStartedEventAttributes?.attempt).toBe(2);
    } catch (error) {
      workers.forEach((w, i) => console.error(`--- worker ${i + 1} output ---\n${w.output.join('')}`));
      throw error;
    } finally {
      for (const worker of workers) await killGroup(worker);
      await Promise.all([workspace, logs].map((dir) => rm(dir, { recursive: true, force: true })));
    }
  }, 90_000);
});
