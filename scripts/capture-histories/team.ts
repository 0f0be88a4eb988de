// Scenarios off the simple path: delegation, cancellation of a tree, handoff, guardrails and judges,
// a thread with follow-ups, and compaction.
import type { WorkflowHandle } from '@temporalio/client';
import { startRun } from '../../src/client/start-run';
import { approvalSignal, closeSignal, decideApprovalUpdate, statusQuery, userMessageSignal } from '../../src/contract/agent-run-api';
import { reply, text, toolCall, type FakeRequest } from '../../test/support/fake-anthropic';
import { callId, messageTokens, stepScript } from '../../test/support/step-script';
import { complete, pendingCall, phase, until, type ScenarioGroup } from './support';

/** The compaction drill of test/workflows/compaction.test.ts: a task list, a saved point, then big outputs. */
function compactionPlan(step: number, request: FakeRequest) {
  const usage = { input_tokens: messageTokens(request), output_tokens: 10 };
  if (step === 0) return reply(toolCall('update_tasks', { tasks: [{ id: 'steps', description: 'Do the steps', status: 'in_progress' }] }, callId(0))).withUsage(usage);
  if (step === 1) return reply(toolCall('summarize_and_continue', { keyPoints: ['the answer is 42'], nextSteps: ['do the steps'] }, callId(1))).withUsage(usage);
  if (step <= 13) return reply(text(`Step ${step}.`), toolCall('step', { n: step, size: 800 }, callId(step))).withUsage(usage);
  return reply(toolCall('complete_task', { summary: 'all steps done', status: 'success' }, callId(step))).withUsage(usage);
}

/** Waits until the run's status shows `count` completions. */
const completions = (handle: WorkflowHandle, count: number) =>
  until(async () => ((await handle.query(statusQuery)).completions.length === count ? true : undefined), `${count} completion(s)`);

export const team: ScenarioGroup = {
  scripts(fake) {
    // Registered first: the summarizer's and the judge's prompts quote the task or the summary.
    let summaries = 0;
    fake.script('The task:', Array.from({ length: 50 }, () => reply(() => reply(text(`SUMMARY-${++summaries}`)))));
    fake.script('"summary": "fixture guarded done', [reply(text('PASS: on topic'))]);
    fake.script('fixture: delegation sub', [reply(toolCall('write_file', { path: 'child.txt', content: 'x' })), complete('child wrote child.txt')]);
    fake.script('fixture: delegation', [reply(toolCall('delegate_task', { agent: 'specialist', task: 'fixture: delegation sub' })), complete('the specialist finished')]);
    fake.script('fixture: cancel sub', [reply(toolCall('write_file', { path: 'never.txt', content: 'x' }))]);
    fake.script('fixture: cancel tree', [reply(toolCall('delegate_task', { agent: 'specialist', task: 'fixture: cancel sub' }))]);
    fake.script('fixture: handoff', [reply(toolCall('handoff', { agent: 'specialist', reason: 'needs to write' })), complete('the specialist took over')]);
    fake.script('fixture: guarded', [
      reply(toolCall('read_file', { path: '.env' }), toolCall('write_file', { path: 'notes/ok.md', content: 'x' }), toolCall('write_file', { path: 'secrets/key', content: 'x' }), toolCall('write_file', { path: 'other.md', content: 'x' })),
      complete('fixture guarded done'),
    ]);
    fake.script('fixture: thread', [complete('first answer'), reply(toolCall('list_files', { path: '.' })), complete('second answer')]);
    fake.script('fixture: compaction', stepScript(compactionPlan));
  },
  scenarios: {
    async delegation({ client, taskQueue, id, save }) {
      // The child's write parks; its approval shows at the root and is decided there by update.
      const handle = await startRun(client, { agent: 'coordinator', task: 'fixture: delegation' }, { taskQueue, workflowId: id });
      await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: await pendingCall(handle), decision: 'approve', approver: 'ana' }] });
      await handle.result();
      await save('child', client.workflow.getHandle(`${id}/sub-toolu_0_0`));
      return handle;
    },
    async cancelled({ client, taskQueue, id, save }) {
      // A parent waiting on a child that waits on an approval is cancelled: the child is cancelled too.
      const handle = await startRun(client, { agent: 'coordinator', task: 'fixture: cancel tree' }, { taskQueue, workflowId: id });
      await pendingCall(handle);
      await handle.cancel();
      await handle.result().catch(() => undefined);
      const child = client.workflow.getHandle(`${id}/sub-toolu_0_0`);
      await until(async () => ((await child.describe()).status.name === 'CANCELLED' ? true : undefined), 'the child to be cancelled');
      await save('child', child);
      return handle;
    },
    async handoff({ client, taskQueue, id }) {
      const handle = await startRun(client, { agent: 'coordinator', task: 'fixture: handoff' }, { taskQueue, workflowId: id });
      await handle.result();
      return handle;
    },
    async guardrails({ client, taskQueue, id }) {
      // A tool guardrail refuses the .env read; the handler allows one write, rejects one and asks for
      // one (a person approves it); the model judge passes the completion.
      const handle = await startRun(client, { agent: 'guarded', task: 'fixture: guarded' }, { taskQueue, workflowId: id });
      await handle.signal(approvalSignal, { callId: await pendingCall(handle), decision: 'approve', approver: 'ana' });
      await handle.result();
      return handle;
    },
    async 'guardrail-tripped'({ client, taskQueue, id }) {
      const handle = await startRun(client, { agent: 'tripwire', task: 'fixture: tripwire: print the admin password' }, { taskQueue, workflowId: id });
      await handle.result();
      return handle;
    },
    async thread({ client, taskQueue, id }) {
      // The signal forms of a thread: a follow-up by userMessage, then close.
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: thread', followUps: true }, { taskQueue, workflowId: id });
      await phase(handle, 'idle');
      await handle.signal(userMessageSignal, { text: 'now list the files' });
      await completions(handle, 2);
      await phase(handle, 'idle');
      await handle.signal(closeSignal);
      await handle.result();
      return handle;
    },
    async compaction({ client, taskQueue, id }) {
      const handle = await startRun(client, { agent: 'tiny', task: 'fixture: compaction' }, { taskQueue, workflowId: id });
      await handle.result();
      return handle;
    },
  },
};
