// Workers killed with SIGKILL at the worst moments, against a real server: during a command that
// must not run twice, during a tool that may, and during a model call. Every side effect is counted.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import * as path from 'node:path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRun } from '../../src/client/start-run';
import type { ToolResultBlock } from '../../src/contract/messages';
import { OUTCOME_UNKNOWN_PREFIX } from '../../src/core/machine/on-tool';
import type { AgentRunInput } from '../../src/contract/run-input';
import { tempWorkspace, waitFor } from '../support/agent-run-harness';
import { reply, startFakeAnthropic, toolCall, type FakeAnthropic, type FakeRequest } from '../support/fake-anthropic';
import { newClient, temporalAddress, uniqueId } from '../support/temporal';
import { apiBlocksFor, expectBlocksKept } from '../support/api-blocks';
import { callId } from '../support/step-script';

const repoRoot = path.resolve(__dirname, '../..');

interface WorkerProcess {
  child: ChildProcess;
  output: string[];
}

/**
 * The crash worker (support/crash-worker.ts) as a real process. Detached, so it leads its own process
 * group: tsx runs the worker in a child node process, and killing only tsx's pid would leave it polling.
 */
function spawnWorker(env: NodeJS.ProcessEnv): WorkerProcess {
  const child = spawn(path.join(repoRoot, 'node_modules/.bin/tsx'), ['test/worker/support/crash-worker.ts'], {
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

/** Processes whose command line contains `marker` (pgrep -f), excluding pgrep itself. */
function processesWith(marker: string): string[] {
  try {
    return execFileSync('pgrep', ['-af', marker], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim() && !line.includes('pgrep'));
  } catch {
    return [];
  }
}

const resultsOf = (request: FakeRequest | undefined) => (request?.body.messages.at(-1)?.content ?? []) as unknown as ToolResultBlock[];

describe('a worker process killed', () => {
  let fake: FakeAnthropic;
  let client: Client;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    [fake, client] = await Promise.all([startFakeAnthropic(), newClient()]);
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await client.connection.close();
    await fake.close();
  });

  /** One worker process now, another after `kill()`; everything is stopped and removed after the test. */
  async function scene(run: AgentRunInput) {
    const [workspace, logs] = await Promise.all([tempWorkspace(), tempWorkspace()]);
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      TEMPORAL_TASK_QUEUE: uniqueId('crash-q'),
      ANTHROPIC_API_KEY: 'test',
      ANTHROPIC_BASE_URL: fake.baseUrl,
      AGENT_WORKSPACE: workspace,
      AGENT_AUDIT_LOG: path.join(logs, 'audit.log'),
    };
    const workers: WorkerProcess[] = [spawnWorker(env)];
    cleanups.push(async () => {
      for (const worker of workers) await killGroup(worker);
      await Promise.all([workspace, logs].map((dir) => rm(dir, { recursive: true, force: true })));
    });
    const handle: WorkflowHandle = await startRun(client, run, { taskQueue: env.TEMPORAL_TASK_QUEUE, workflowId: uniqueId('crash-run') });
    return {
      handle,
      workspace,
      workers,
      async kill() {
        await killGroup(workers.at(-1)!);
        workers.push(spawnWorker(env));
      },
      /** The worker output, shown when a test fails. */
      dump: () => workers.forEach((w, i) => console.error(`--- worker ${i + 1} output ---\n${w.output.join('')}`)),
    };
  }

  it('during a command that must not run twice: it ran once or not at all, the model hears "outcome unknown", no process outlives the worker', async () => {
    const task = uniqueId('once');
    const marker = `crash-marker-${uniqueId('m')}`;
    fake.script(task, [
      reply(toolCall('shell', { command: `echo start >> once.log; sleep 45 # ${marker}\necho end >> once.log` })),
      reply(toolCall('complete_task', { summary: 'went on after the unknown outcome', status: 'partial' })),
    ]);
    // The command appends to once.log, so its rule grants writes.
    const s = await scene({ agent: 'general', task, toolApproval: { alwaysApproved: [{ tool: 'shell', writes: true }] } });
    try {
      await waitFor(async () => (processesWith(marker).length > 0 ? true : undefined), 'the command to be running', 60_000);
      await s.kill();
      // The sandboxed command died with its worker: nothing is left running.
      await waitFor(async () => (processesWith(marker).length === 0 ? true : undefined), 'the command to die with its worker', 10_000).catch((error: unknown) => {
        throw new Error(`${String(error)}; still running: ${processesWith(marker).join(' | ')}`);
      });

      const result = await s.handle.result();
      expect(result).toMatchObject({ status: 'completed', completion: { status: 'partial' } });
      const log = (await readFile(path.join(s.workspace, 'once.log'), 'utf8').catch(() => '')).trim().split('\n').filter(Boolean);
      expect(log.filter((l) => l === 'start').length).toBeLessThanOrEqual(1);
      expect(log).not.toContain('end');
      // Exactly one tool activity, never retried.
      const scheduled = ((await s.handle.fetchHistory()).events ?? []).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool');
      expect(scheduled).toHaveLength(1);
      const [told] = resultsOf(fake.requestsFor(task).find((r) => r.index === 1));
      expect(told?.is_error).toBe(true);
      expect(told?.content.startsWith(`${OUTCOME_UNKNOWN_PREFIX}: the worker running this call stopped reporting (it stopped, hung, or lost its connection to the server); it may or may not have taken effect; check before retrying`)).toBe(true);
    } catch (error) {
      s.dump();
      throw error;
    }
  }, 120_000);

  it('during a tool that is safe to repeat: completed steps are not repeated, the interrupted one runs again and finishes once', async () => {
    const task = uniqueId('again');
    fake.script(task, [
      reply(toolCall('slow_step', { n: 1, ms: 0 })),
      reply(toolCall('slow_step', { n: 2, ms: 8_000 })),
      reply(toolCall('complete_task', { summary: 'both steps ran', status: 'success' })),
    ]);
    const s = await scene({ agent: 'general', task, toolApproval: { alwaysApproved: ['slow_step'] } });
    try {
      await waitFor(async () => ((await readFile(path.join(s.workspace, 'steps.log'), 'utf8').catch(() => '')).includes('start 2') ? true : undefined), 'step 2 to start', 60_000);
      await s.kill();
      const result = await s.handle.result();
      expect(result).toMatchObject({ status: 'completed', iterations: 3 });
      const log = (await readFile(path.join(s.workspace, 'steps.log'), 'utf8')).trim().split('\n');
      const count = (line: string) => log.filter((l) => l === line).length;
      expect([count('start 1'), count('end 1')]).toEqual([1, 1]);
      // Killed after it started: run again on the new worker, and it finished exactly once.
      expect([count('start 2'), count('end 2')]).toEqual([2, 1]);
      // Model calls that had completed before the kill were not made again.
      const requests = fake.requestsFor(task);
      expect([0, 1, 2].map((i) => requests.filter((r) => r.index === i).length)).toEqual([1, 1, 1]);
      expect(resultsOf(requests.find((r) => r.index === 2))[0]).toMatchObject({ content: 'step 2 done' });
    } catch (error) {
      s.dump();
      throw error;
    }
  }, 120_000);

  it('during a quick read tool (a local activity): the workflow task is retried on the next worker, which runs the call again; finished calls are not repeated', async () => {
    const task = uniqueId('local');
    fake.script(task, [
      reply(toolCall('quick_probe', { n: 1, ms: 0 })),
      reply(toolCall('quick_probe', { n: 2, ms: 4_000 })),
      reply(toolCall('complete_task', { summary: 'both probes ran', status: 'success' })),
    ]);
    const s = await scene({ agent: 'general', task });
    try {
      await waitFor(async () => ((await readFile(path.join(s.workspace, 'probe.log'), 'utf8').catch(() => '')).includes('start 2') ? true : undefined), 'probe 2 to start', 60_000);
      await s.kill();
      const result = await s.handle.result();
      expect(result).toMatchObject({ status: 'completed', iterations: 3 });
      const log = (await readFile(path.join(s.workspace, 'probe.log'), 'utf8')).trim().split('\n');
      const count = (line: string) => log.filter((l) => l === line).length;
      expect([count('start 1'), count('end 1')]).toEqual([1, 1]);
      // Its workflow task never completed, so no marker recorded it: the new worker ran it again.
      expect(count('start 2')).toBe(2);
      expect(count('end 2')).toBeGreaterThanOrEqual(1);
      const events = (await s.handle.fetchHistory()).events ?? [];
      expect(events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool')).toHaveLength(0);
      expect(events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length).toBeGreaterThanOrEqual(2);
      expect(resultsOf(fake.requestsFor(task).find((r) => r.index === 2))[0]).toMatchObject({ content: 'probe 2 done' });
    } catch (error) {
      s.dump();
      throw error;
    }
  }, 120_000);

  it('during a model call: noticed within the heartbeat timeout, the call is made again once, and the run completes within 60 s of the kill', async () => {
    const task = uniqueId('model');
    let slowOnce = true;
    fake.script(task, [
      // The first attempt thinks for a long time (and the worker dies meanwhile); the retry answers at once.
      reply(() => {
        const answer = reply(toolCall('complete_task', { summary: 'answered after the crash', status: 'success' }));
        if (!slowOnce) return answer;
        slowOnce = false;
        return answer.delay(40_000);
      }),
    ]);
    const s = await scene({ agent: 'general', task });
    try {
      await waitFor(async () => (fake.requestsFor(task).length > 0 ? true : undefined), 'the model call to start', 30_000);
      await s.kill();
      const killedAt = Date.now();
      const result = await s.handle.result();
      const afterKill = Date.now() - killedAt;
      expect(result).toMatchObject({ status: 'completed', completion: { summary: 'answered after the crash' } });
      expect(afterKill).toBeLessThan(60_000);
      expect(fake.requestsFor(task)).toHaveLength(2);
    } catch (error) {
      s.dump();
      throw error;
    }
  }, 120_000);

  it("during the model call after a reply that thought and searched: the next worker rebuilds the conversation with the API's blocks verbatim", async () => {
    const task = uniqueId('blocks');
    let slowOnce = true;
    const done = reply(toolCall('complete_task', { summary: 'answered after the crash', status: 'success' }, callId(1)));
    fake.script(task, [
      reply(...apiBlocksFor(0), toolCall('slow_step', { n: 1, ms: 0 }, callId(0))),
      // The second call hangs (its worker dies meanwhile); the retry, on a worker whose memory is empty, answers.
      reply(() => {
        if (!slowOnce) return done;
        slowOnce = false;
        return done.delay(40_000);
      }),
    ]);
    const s = await scene({ agent: 'general', task, toolApproval: { alwaysApproved: ['slow_step'] } });
    try {
      await waitFor(async () => (fake.requestsFor(task).length > 1 ? true : undefined), 'the second model call to start', 30_000);
      await s.kill();
      expect(await s.handle.result()).toMatchObject({ status: 'completed' });
      const requests = fake.requestsFor(task);
      expect(requests).toHaveLength(3);
      // The retry carries the first reply's blocks as they came: the fake would have refused it otherwise.
      expect(expectBlocksKept(requests.slice(2))).toBe(1);
      expect(fake.errors).toEqual([]);
    } catch (error) {
      s.dump();
      throw error;
    }
  }, 120_000);
});
