// What a parked run waits for, on a real server: a question's deadline, a reply that is not one, a
// "never" that settles the other waiting calls of its tool, and an approval deadline that holds
// across continue-as-new and a worker restart.
import { Client } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { preferencesWorkflowId } from '../../src/core/approvals/preference-messages';
import { startRun } from '../../src/client/start-run';
import { approvalSignal, decideApprovalUpdate, statusQuery, userReplySignal } from '../../src/contract/agent-run-api';
import { tempWorkspace, toolResultsIn, waitFor, waitForApprovals, waitForPhase, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { newClient, uniqueId } from '../support/temporal';

const complete = (summary = 'done') => reply(toolCall('complete_task', { summary, status: 'success' }));
const write = (file: string, content = 'hello') => toolCall('write_file', { path: file, content });
const ask = (question: string) => reply(toolCall('need_more_information', { question }));

describe('waits', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('gives the model an error result when a question is not answered within the run\'s timeout, and the run goes on', async () => {
    const task = uniqueId('question-timeout');
    fake.script(task, [ask('Which file?'), complete('went on without an answer')]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task, approvalTimeoutSeconds: 2 });
      await waitForPhase(handle, 'waiting_input');
      expect(await handle.result()).toMatchObject({ status: 'completed', completion: { summary: 'went on without an answer' } });
      expect((await handle.query(statusQuery)).pendingQuestion).toBeUndefined();
    });
    const [answer] = toolResultsIn(fake.requestsFor(task)[1]);
    expect(answer).toMatchObject({ tool_use_id: 'toolu_0_0', is_error: true });
    expect(answer!.content).toContain('The user did not answer within 2s');
  });

  it('ignores a malformed userReply (recorded, the run stays parked), then takes a good one', async () => {
    const task = uniqueId('bad-reply');
    fake.script(task, [ask('Proceed?'), complete()]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      try {
        await waitForPhase(handle, 'waiting_input');
        await handle.signal(userReplySignal, { answer: 'yes' } as never);
        await handle.signal(userReplySignal, 'yes' as never);
        const status = await waitFor(async () => {
          const s = await handle.query(statusQuery);
          return s.ignored.length === 2 ? s : undefined;
        }, 'both malformed replies to be recorded');
        expect(status.ignored).toEqual([
          expect.objectContaining({ kind: 'userReply', reason: expect.stringContaining('malformed reply payload') }),
          expect.objectContaining({ kind: 'userReply', reason: expect.stringContaining('malformed reply payload') }),
        ]);
        expect(status.phase).toBe('waiting_input');
        expect(status.pendingQuestion).toMatchObject({ callId: 'toolu_0_0', question: 'Proceed?' });
        expect(fake.requestsFor(task)).toHaveLength(1);
        await handle.signal(userReplySignal, { text: 'yes, go on' });
        expect((await handle.result()).status).toBe('completed');
      } finally {
        await handle.terminate('test cleanup').catch(() => undefined);
      }
    });
    expect(toolResultsIn(fake.requestsFor(task)[1])).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_0_0', content: 'The user replied: yes, go on' }]);
  });

  it('lets one reject_always settle the other calls of that tool waiting in the same turn, but not other tools', async () => {
    const task = uniqueId('never-sweep');
    const approver = uniqueId('nina');
    fake.script(task, [reply(write('n.txt', '1'), toolCall('shell', { command: 'echo asks-still' }), write('n.txt', '2')), complete()]);
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      const handle = await start({ agent: 'general', task, user: approver });
      try {
        await waitForApprovals(handle, 3);
        const outcome = await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'reject_always', approver }] });
        expect(outcome.message).toBe('reject_always applied to toolu_0_0 (and 1 other pending call(s) it covers)');
        expect((await handle.query(statusQuery)).pendingApprovals.map((p) => p.callId)).toEqual(['toolu_0_1']);
        await handle.signal(approvalSignal, { callId: 'toolu_0_1', decision: 'approve' });
        expect((await handle.result()).status).toBe('completed');
        const decisions = (await handle.query(statusQuery)).decisions;
        expect(decisions.find((d) => d.callId === 'toolu_0_2')).toMatchObject({ decision: 'reject_always' });
      } finally {
        await handle.terminate('test cleanup').catch(() => undefined);
        await client.workflow.getHandle(preferencesWorkflowId(approver)).terminate('test cleanup').catch(() => undefined);
      }
    });
    expect(toolResultsIn(fake.requestsFor(task)[1]).map((r) => [r.tool_use_id, r.is_error ?? false])).toEqual([
      ['toolu_0_0', true],
      ['toolu_0_1', false],
      ['toolu_0_2', true],
    ]);
  });

  it('keeps an approval\'s deadline across continue-as-new and a worker restart: it times out when first due, not later', async () => {
    const task = uniqueId('deadline');
    const timeoutSeconds = 10;
    fake.script(task, [reply(write('late.txt')), complete('went on')]);
    const taskQueue = uniqueId('q-deadline');
    const workspace = await tempWorkspace();
    const worker = <T>(body: (client: Client) => Promise<T>): Promise<T> =>
      withAgentWorker({ ...bed.harness(), taskQueue, workspace }, ({ client }) => body(client));
    let workflowId = '';
    try {
      // First worker: the call parks, then ignored signals push the run past its history budget.
      const { requestedAt, parkedRunId } = await worker(async (client) => {
        const handle = await startRun(client, { agent: 'general', task, approvalTimeoutSeconds: timeoutSeconds, historyBudget: { maxEvents: 50 } }, { taskQueue, workflowId: uniqueId('run') });
        workflowId = handle.workflowId;
        const parked = await waitForApprovals(handle);
        const parkedRunId = (await handle.describe()).runId;
        const requestedAt = Date.parse(parked.pendingApprovals[0]!.requestedAt);
        // Continue as new well after the call parked, so a deadline counted from the new link would come late.
        await waitFor(async () => (Date.now() >= requestedAt + 3_000 ? true : undefined), 'the call to have waited a while');
        for (let i = 0; i < 40 && (await handle.describe()).runId === parkedRunId; i += 1) {
          await handle.signal(approvalSignal, { callId: `no-such-call-${i}`, decision: 'approve' });
        }
        await waitFor(async () => {
          const status = await handle.query(statusQuery);
          return status.continueAsNewLinks > 0 && status.phase === 'waiting_approval' ? true : undefined;
        }, 'the next link to wait for the same approval');
        return { requestedAt, parkedRunId };
      });
      // The worker is gone for a while; a deadline counted again from the restart would come late.
      await waitFor(async () => (Date.now() >= requestedAt + 6_000 ? true : undefined), 'the worker to have been away for a while');
      const restartedAt = Date.now();
      // The scenario needs the restart to come before the deadline.
      expect(restartedAt).toBeLessThan(requestedAt + timeoutSeconds * 1000);
      const result = await worker(async (client) => {
        const handle = client.workflow.getHandle(workflowId);
        const status = await handle.query(statusQuery);
        expect(status.continueAsNewLinks).toBeGreaterThan(0);
        expect((await handle.describe()).runId).not.toBe(parkedRunId);
        const outcome = await handle.result();
        return { outcome, status: await handle.query(statusQuery) };
      });
      expect(result.outcome.status).toBe('completed');
      const timedOut = result.status.decisions.find((d) => d.callId === 'toolu_0_0');
      expect(timedOut).toMatchObject({ decision: 'timed_out', via: 'timeout' });
      const decidedAt = Date.parse(timedOut!.decidedAt);
      expect(decidedAt - requestedAt).toBeGreaterThanOrEqual(timeoutSeconds * 1000);
      // Counted again from the new link (3 s or more after parking) or from the restart (6 s or
      // more), it would have come at least 3 s late.
      expect(decidedAt - requestedAt).toBeLessThan(timeoutSeconds * 1000 + 2_500);
    } finally {
      if (workflowId) {
        const client = await newClient();
        await client.workflow.getHandle(workflowId).terminate('test cleanup').catch(() => undefined);
        await client.connection.close();
      }
    }
    expect(toolResultsIn(fake.requestsFor(task).at(-1))[0]).toMatchObject({ tool_use_id: 'toolu_0_0', is_error: true });
  }, 90_000);
});
