// Forking a run (issue 23, item 5) against a real Temporal server and the fake Messages API: the fork
// reads the original's state after iteration N by replaying its history, and its first model request
// carries the conversation up to there, block for block.
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { approvalSignal, statusQuery } from '../../src/contract/agent-run-api';
import { forkRun, planFork, workspaceNote } from '../../src/client/fork-run';
import { RunNotForkableError } from '../../src/client/errors';
import { startRun } from '../../src/client/start-run';
import { ForkedFromKey } from '../../src/contract/search-attributes';
import { waitForApprovals, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, text, toolCall, type FakeRequest } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

const list = (path: string) => toolCall('list_files', { path });
const complete = (summary = 'done') => reply(toolCall('complete_task', { summary, status: 'success' }));
/** The messages as the model read them; cache breakpoints move from request to request. */
const plain = (request: FakeRequest | undefined) => JSON.parse(JSON.stringify(request?.body.messages ?? [], (key, value: unknown) => (key === 'cache_control' ? undefined : value))) as unknown[];

describe('forkRun', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('a fork of a finished run at iteration 1 sends the model the conversation up to there, with the new instruction', async () => {
    const task = uniqueId('fork-closed');
    fake.script(task, [reply(text('Looking around first.'), list('.')), complete('done')]);
    await withAgentWorker(bed.harness(), async ({ client, taskQueue }) => {
      const original = await startRun(client, { agent: 'general', task }, { taskQueue, workflowId: uniqueId('orig') });
      expect((await original.result()).iterations).toBe(2);
      const { plan, handle } = await forkRun(client, original.workflowId, { iteration: 1, task: 'try the docs folder instead', taskQueue });
      expect(handle.workflowId).not.toBe(original.workflowId);
      expect(plan.memo).toEqual({ forkedFrom: original.workflowId, forkedFromRunId: expect.any(String), forkedAtIteration: 1 });
      const described = await handle.describe();
      expect(described.memo).toMatchObject({ forkedFrom: original.workflowId, forkedAtIteration: 1 });
      expect(described.typedSearchAttributes.get(ForkedFromKey)).toBe(original.workflowId);
      expect(plan.workspace).toBe('shared');
      const result = await handle.result();
      expect(result.status).toBe('completed');
      const status = await handle.query(statusQuery);
      expect(status.iteration).toBe(2);
    });
    const requests = fake.requestsFor(task);
    expect(requests).toHaveLength(3);
    // The original's second request is the conversation right after iteration 1; the fork's first
    // carries exactly that, plus the person's new instruction after the tool results.
    const atOne = plain(requests[1]);
    const forked = plain(requests[2]);
    expect(forked.slice(0, -1)).toEqual(atOne.slice(0, -1));
    const [lastOriginal, lastForked] = [atOne.at(-1) as { content: unknown[] }, forked.at(-1) as { content: unknown[] }];
    expect(lastForked.content.slice(0, -1)).toEqual(lastOriginal.content);
    expect(lastForked.content.at(-1)).toEqual({ type: 'text', text: expect.stringContaining('try the docs folder instead') });
  });

  it('a fork of a running run leaves the original untouched', async () => {
    const task = uniqueId('fork-running');
    fake.script(task, [reply(list('.')), reply(toolCall('write_file', { path: 'a.md', content: 'x' })), complete()]);
    await withAgentWorker(bed.harness(), async ({ start, client, taskQueue }) => {
      const original = await start({ agent: 'general', task });
      await waitForApprovals(original);
      const before = (await original.fetchHistory()).events?.length;
      const { handle } = await forkRun(client, original.workflowId, { iteration: 1, taskQueue });
      // The fork replays iteration 2 too and parks on the same write, in its own run.
      await waitForApprovals(handle);
      expect((await original.fetchHistory()).events?.length).toBe(before);
      expect((await original.query(statusQuery)).phase).toBe('waiting_approval');
      await original.signal(approvalSignal, { callId: 'toolu_1_0', decision: 'approve' });
      expect((await original.result()).status).toBe('completed');
      expect((await handle.query(statusQuery)).phase).toBe('waiting_approval');
      await handle.terminate('test done');
    });
    const requests = fake.requestsFor(task);
    // The original's first two, then the fork's first (made before the original was approved), which
    // equals the original's second, then the original's third.
    expect(requests).toHaveLength(4);
    expect(plain(requests[2])).toEqual(plain(requests[1]));
  });

  it('reads the state across continue-as-new links', async () => {
    const task = uniqueId('fork-chain');
    const steps = Array.from({ length: 8 }, (_, i) => reply(list(`dir-${i}`)));
    fake.script(task, [...steps, complete('chain done'), complete('fork done')]);
    await withAgentWorker(bed.harness(), async ({ start, client, taskQueue }) => {
      const original = await start({ agent: 'general', task, historyBudget: { maxEvents: 50 } });
      await original.result();
      expect((await original.query(statusQuery)).continueAsNewLinks).toBeGreaterThan(0);
      const firstRunId = (await client.workflow.getHandle(original.workflowId).fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes?.firstExecutionRunId;
      const { plan, handle } = await forkRun(client, original.workflowId, { iteration: 8, taskQueue });
      // Iteration 8 was reached by a later link than the first.
      expect(plan.memo.forkedFromRunId).not.toBe(firstRunId);
      expect((await handle.result()).status).toBe('completed');
    });
    const requests = fake.requestsFor(task);
    expect(plain(requests.at(-1))).toEqual(plain(requests[8]));
  });

  it('a worker\'s own bundle hands out no state, even when it replays a history (only the fork replayer does)', async () => {
    const task = uniqueId('fork-no-cost');
    fake.script(task, [reply(list('.')), complete()]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const original = await start({ agent: 'general', task });
      await original.result();
      const handedOut: unknown[] = [];
      await Worker.runReplayHistory(
        {
          workflowBundle: bed.harness().workflowBundle,
          sinks: { lifecycle: { emit: { fn: () => undefined } }, forkPoints: { iterationEnded: { fn: (_info, state: unknown) => void handedOut.push(state), callDuringReplay: true } } },
        },
        await original.fetchHistory(),
        original.workflowId,
      );
      expect(handedOut).toEqual([]);
    });
  });

  it('refuses an iteration the run never reached, and a run that does not exist', async () => {
    const task = uniqueId('fork-bad');
    fake.script(task, [reply(list('.')), complete()]);
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      const original = await start({ agent: 'general', task });
      await original.result();
      const never = await planFork(client, original.workflowId, { iteration: 5 }).then(() => undefined, (e: unknown) => e);
      expect(never).toBeInstanceOf(RunNotForkableError);
      expect((never as Error).message).toBe(`Run ${original.workflowId} never completed iteration 5: it reached iteration 2. Fork it at an iteration from 1 to 2.`);
      const missing = await planFork(client, 'no-such-run-anywhere', { iteration: 1 }).then(() => undefined, (e: unknown) => e);
      expect(missing).toBeInstanceOf(RunNotForkableError);
      expect((missing as Error).message).toMatch(/^There is no run no-such-run-anywhere/);
    });
  });
});

describe('forkRun with per-run workspaces', () => {
  const solo: AgentDefinitionInput = {
    name: 'solo',
    description: 'Reads its own folder.',
    modelTier: 'balanced',
    tools: ['read_file', 'list_files'],
    systemPrompt: 'You read files.',
    maxIterations: 10,
    workspace: 'per-run',
  };
  const bed = useAgentTestbed({ agents: [solo] });
  const fake = bed.fake;

  it('copies the original run\'s folder as it is now into the fork\'s own folder', async () => {
    const task = uniqueId('fork-per-run');
    fake.script(task, [reply(list('.')), reply(toolCall('read_file', { path: 'notes.md' })), complete()]);
    await withAgentWorker(bed.harness(), async ({ start, client, taskQueue, workspace }) => {
      const original = await start({ agent: 'solo', task });
      await original.result();
      // Written after the run ended: the fork sees the folder as it is now, not as it was at iteration 1.
      await writeFile(path.join(workspace, 'runs', original.workflowId, 'notes.md'), 'written later');
      const { plan, handle } = await forkRun(client, original.workflowId, { iteration: 1, taskQueue });
      expect(plan.workspace).toBe('per-run');
      expect(workspaceNote(plan)).toContain('its own copy');
      expect((await handle.result()).status).toBe('completed');
      expect(await readFile(path.join(workspace, 'runs', handle.workflowId, 'notes.md'), 'utf8')).toBe('written later');
    });
    const forkRead = fake.requestsFor(task).at(-1);
    expect(JSON.stringify(forkRead?.body.messages.at(-1))).toContain('written later');
  });
});
