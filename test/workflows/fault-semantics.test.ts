// A run outlives what goes wrong around it, on a real server: a long API outage, cancellation in the
// middle of a turn, a failed or cancelled run continued with its conversation, huge tool outputs.
import { readdir } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CancelledFailure, WorkflowFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { resumeRun } from '../../src/client/resume-run';
import { DirectoryConversationStore } from '../../src/runtime/conversation/conversation-store';
import { approvalSignal, statusQuery } from '../../src/contract/agent-run-api';
import { toolResultsIn, waitFor, waitForApprovals, waitForPhase, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { fail, reply, text, toolCall } from '../support/fake-anthropic';
import { callId, messageTokens, stepScript, stepTool } from '../support/step-script';
import { uniqueId } from '../support/temporal';

const done = (summary = 'done') => reply(toolCall('complete_task', { summary, status: 'success' }));

async function cancelled(result: Promise<unknown>): Promise<void> {
  const error = await result.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkflowFailedError);
  expect((error as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
}

describe('fault semantics', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('waits out an outage longer than the old attempt cap (15 × 503 with retry-after: 1), showing why, then completes', async () => {
    const task = uniqueId('outage');
    fake.script(task, [...Array.from({ length: 15 }, () => fail(503, { retryAfter: 1 })), done('after the outage')]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      const waiting = await waitForPhase(handle, 'waiting_for_model', 30_000);
      expect(waiting.modelWait).toMatchObject({ attempt: expect.any(Number), lastError: expect.stringContaining('503'), nextAttemptAt: expect.any(String) });
      expect(waiting.iteration).toBe(1);
      const result = await handle.result();
      expect(result).toMatchObject({ status: 'completed', iterations: 1, completion: { summary: 'after the outage' } });
      expect(fake.requestsFor(task)).toHaveLength(16);
      // Each wait honoured retry-after: about a second apart, not the doubling backoff.
      const times = fake.requestsFor(task).map((r) => r.at);
      expect(times.at(-1)! - times[0]!).toBeLessThan(40_000);
    });
  }, 90_000);

  it('ends a run cancelled during a tool as cancelled, although complete_task follows in the same turn', async () => {
    const task = uniqueId('cancel-tool');
    fake.script(task, [reply(toolCall('shell', { command: 'sleep 30' }), toolCall('complete_task', { summary: 'should not count', status: 'success' }))]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task, toolApproval: { alwaysApproved: ['shell'] } });
      await waitFor(async () => ((await handle.query(statusQuery)).recentToolCalls.some((c) => c.outcome === 'running') ? true : undefined), 'the tool to run');
      await handle.cancel();
      await cancelled(handle.result());
      const status = await handle.query(statusQuery);
      expect(status.phase).toBe('cancelled');
      expect(status.completion).toBeUndefined();
      expect((await handle.describe()).status.name).toBe('CANCELLED');
    });
  });

  it('ends the wait of a run cancelled while parked, and resume continues it where it was, conversation included', async () => {
    const task = uniqueId('cancel-parked');
    fake.script(task, [reply(toolCall('list_files', { path: '.' })), reply(text('Writing now.'), toolCall('write_file', { path: 'w.txt', content: 'x' })), done('resumed and wrote')]);
    await withAgentWorker(bed.harness(), async ({ start, client, taskQueue }) => {
      const handle = await start({ agent: 'general', task });
      await waitForApprovals(handle);
      await handle.cancel();
      await cancelled(handle.result());

      const { handle: resumed } = await resumeRun(client, handle.workflowId, { taskQueue });
      const parked = await waitForApprovals(resumed);
      expect(parked).toMatchObject({ resumedFrom: handle.workflowId, iteration: 2 });
      expect(parked.pendingApprovals.map((p) => p.callId)).toEqual(['toolu_1_0']);
      await resumed.signal(approvalSignal, { callId: 'toolu_1_0', decision: 'approve' });
      expect(await resumed.result()).toMatchObject({ status: 'completed', completion: { summary: 'resumed and wrote' } });
    });
    const last = fake.requestsFor(task).at(-1)!;
    // The resumed run's model call carries the first run's conversation: the listing and the write.
    expect(last.index).toBe(2);
    expect(JSON.stringify(last.body.messages)).toContain('toolu_0_0');
  });

  it('resumes a failed run with its conversation', async () => {
    const task = uniqueId('failed');
    fake.script(task, [reply(toolCall('list_files', { path: '.' })), fail(400), done('continued after the failure')]);
    await withAgentWorker(bed.harness(), async ({ start, client, taskQueue }) => {
      const handle = await start({ agent: 'general', task });
      await handle.result().catch(() => undefined);
      expect((await handle.describe()).status.name).toBe('FAILED');
      const { handle: resumed } = await resumeRun(client, handle.workflowId, { taskQueue });
      expect(await resumed.result()).toMatchObject({ status: 'completed', iterations: 2, completion: { summary: 'continued after the failure' } });
    });
    const requests = fake.requestsFor(task);
    expect(requests.map((r) => r.index)).toEqual([0, 1, 1]);
    expect(toolResultsIn(requests[2])[0]).toMatchObject({ tool_use_id: 'toolu_0_0' });
  });

  it('keeps a run with huge tool outputs under the model window, without summarizing on every turn', async () => {
    const task = uniqueId('huge');
    const agent: AgentDefinitionInput = {
      name: 'small-window',
      description: 'A small window and big outputs.',
      modelTier: 'balanced',
      tools: ['step'],
      systemPrompt: 'You work in steps.',
      maxIterations: 20,
      context: { windowTokens: 8_000, targetShare: 0.5, keepRecentTurns: 4 },
    };
    let summaries = 0;
    fake.script('The task:', Array.from({ length: 30 }, () => reply(() => reply(text(`SUMMARY-${++summaries}`)))));
    fake.script(
      task,
      stepScript((step, request) => {
        const usage = { input_tokens: messageTokens(request), output_tokens: 10 };
        if (step < 6) return reply(toolCall('step', { n: step, size: 60_000 }, callId(step))).withUsage(usage);
        return reply(toolCall('complete_task', { summary: 'all steps', status: 'success' }, callId(step))).withUsage(usage);
      }),
    );
    await withAgentWorker({ ...bed.harness(), agents: [agent], tools: [stepTool] }, async ({ start }) => {
      expect((await (await start({ agent: 'small-window', task })).result()).status).toBe('completed');
    });
    const main = fake.requestsFor(task);
    // Each 60,000-character output alone is twice the window; every prompt still fits it.
    for (const request of main) expect(messageTokens(request)).toBeLessThan(8_000);
    expect(summaries).toBeLessThan(main.length);
  }, 90_000);

  it('deletes a closed run\'s conversation from a shared store', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'store-'));
    const task = uniqueId('store');
    fake.script(task, [reply(toolCall('list_files', { path: '.' })), done()]);
    // Count saves rather than polling the directory: a quick run can save and delete between two polls.
    let saves = 0;
    const store = new (class extends DirectoryConversationStore {
      override async save(...args: Parameters<DirectoryConversationStore['save']>) {
        await super.save(...args);
        saves += 1;
      }
    })(dir);
    await withAgentWorker({ ...bed.harness(), conversations: store }, async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      await handle.result();
      expect(saves).toBeGreaterThan(0);
      await waitFor(async () => ((await readdir(dir)).length === 0 ? true : undefined), 'the store to be emptied');
    });
  });
});
