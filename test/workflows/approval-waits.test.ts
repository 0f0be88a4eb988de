// Waiting for a person against a real Temporal server: the approval timeout, a decision sent while no
// worker runs, and answers to questions (signal and update). The model is the scripted fake.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Client, Connection, WorkflowUpdateFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { useAgentTestbed } from '../support/agent-testbed';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';

import { startRun } from '../../src/client/start-run';

import type { agentRun } from '../../src/workflows/agent-run';
import { approvalSignal, statusQuery, submitReplyUpdate, userReplySignal } from '../../src/contract/agent-run-api';
import type { AgentRunInput } from '../../src/contract/run-input';

import { tempWorkspace, waitFor, withAgentWorker } from '../support/agent-run-harness';
import { reply, toolCall } from '../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../support/temporal';
import { complete, parked, resultsIn, runWorker, tallyAgent, tallyTool, write } from './approval-test-kit';

describe('approvals: timeouts, offline decisions and questions', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, tallyAgent], tools: [tallyTool] });
  const fake = bed.fake;
  const harness = bed.harness;

  it('treats an approval as rejected with reason "timed out" when nobody decides in time, and continues', async () => {
    const task = uniqueId('timeout');
    fake.script(task, [reply(write('late.txt')), complete('went on without it')]);
    await withAgentWorker(harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task, approvalTimeoutSeconds: 2 });
      await parked(handle);
      const result = await handle.result();
      expect(result.status).toBe('completed');
      expect(existsSync(path.join(workspace, 'late.txt'))).toBe(false);
      const status = await handle.query(statusQuery);
      expect(status.decisions).toEqual([expect.objectContaining({ callId: 'toolu_0_0', decision: 'timed_out', reason: 'timed out', via: 'timeout' })]);
      expect(status.events.filter((e) => e.name === 'approvalDecided').at(-1)?.data).toMatchObject({ decision: 'timed_out' });
    });
    const [result] = resultsIn(fake.requestsFor(task)[1]);
    expect(result).toMatchObject({ tool_use_id: 'toolu_0_0', is_error: true });
    expect(result?.content).toContain('timed out: no decision within 2s');
  });

  it('keeps an approval sent while no worker runs, and finishes once a worker starts', async () => {
    const task = uniqueId('offline');
    fake.script(task, [reply(write('offline.txt', 'later')), complete()]);
    const taskQueue = uniqueId('q-offline');
    const workspace = await tempWorkspace();
    const input: AgentRunInput = { agent: 'general', task };
    const handle = await runWorker(bed, { taskQueue, workspace }, async (client) => {
      const h = await startRun(client, input, { taskQueue, workflowId: uniqueId('run') });
      await parked(h);
      return h;
    });
    // The worker is gone: the signal is stored by the server alone.
    const connection = await Connection.connect({ address: temporalAddress() });
    try {
      const client = new Client({ connection });
      const offline = client.workflow.getHandle<typeof agentRun>(handle.workflowId);
      await offline.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve', approver: 'night-shift' });
      const events = (await offline.fetchHistory()).events ?? [];
      expect(events.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'approval')).toHaveLength(1);
      // Nothing has processed it yet: the last completed workflow task predates the signal.
      expect(events.at(-1)?.workflowTaskScheduledEventAttributes).toBeTruthy();
      expect((await offline.describe()).status.name).toBe('RUNNING');

      const result = await runWorker(bed, { taskQueue, workspace }, () => offline.result());
      expect(result.status).toBe('completed');
      expect(await readFile(path.join(workspace, 'offline.txt'), 'utf8')).toBe('later');
    } finally {
      await connection.close();
    }
  });

  it('delivers a userReply signal as the need_more_information result, and ignores a second one', async () => {
    const task = uniqueId('question-signal');
    fake.script(task, [reply(toolCall('need_more_information', { question: 'Which file?', context: 'There are two.' })), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      const status = await waitFor(async () => {
        const s = await handle.query(statusQuery);
        return s.phase === 'waiting_input' ? s : undefined;
      }, 'the question');
      expect(status.pendingQuestion).toMatchObject({ callId: 'toolu_0_0', question: 'Which file?', context: 'There are two.' });
      await handle.signal(userReplySignal, { text: 'notes.md, please' });
      await handle.signal(userReplySignal, { text: 'a second answer nobody asked for' });
      expect((await handle.result()).status).toBe('completed');
      const after = await handle.query(statusQuery);
      expect(after.pendingQuestion).toBeUndefined();
      expect(after.ignored).toEqual([expect.objectContaining({ kind: 'userReply', reason: 'no question is waiting for a reply' })]);
    });
    const [answer] = resultsIn(fake.requestsFor(task)[1]);
    expect(answer).toEqual({ type: 'tool_result', tool_use_id: 'toolu_0_0', content: 'The user replied: notes.md, please' });
  });

  it('delivers a submitReply update as the result and refuses one when no question waits', async () => {
    const task = uniqueId('question-update');
    // The model's next answer is held until the second reply was refused, so that reply surely meets
    // a running run without a question (not a finished one).
    let release!: () => void;
    const refused = new Promise<void>((resolve) => (release = resolve));
    fake.script(task, [reply(toolCall('need_more_information', { question: 'Proceed?' })), complete().until(refused)]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      await waitFor(async () => ((await handle.query(statusQuery)).phase === 'waiting_input' ? true : undefined), 'the question');
      const outcome = await handle.executeUpdate(submitReplyUpdate, { args: [{ text: 'yes, go ahead' }] });
      expect(outcome).toEqual({ applied: true, message: 'reply delivered to the agent' });
      const again = await handle.executeUpdate(submitReplyUpdate, { args: [{ text: 'again' }] }).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((again as WorkflowUpdateFailedError).cause?.message).toBe('No question is waiting for a reply');
      release();
      expect((await handle.result()).status).toBe('completed');
    });
    const [answer] = resultsIn(fake.requestsFor(task)[1]);
    expect(answer?.content).toBe('The user replied: yes, go ahead');
  });
});
