// Scenarios of the edges issue 31 fixed (messages at a run's start, continue-as-new with messages in
// flight, decisions that race, failures inside message handling, ends with handlers running). They
// are captured before the fix and after it: a history of the old code is what a run that started
// then replays, so its folder must keep replaying, on the old code path the patch keeps for it.
import { WithStartWorkflowOperation, WorkflowUpdateStage, type WorkflowHandle } from '@temporalio/client';
import { startRun } from '../../src/client/start-run';
import {
  AGENT_RUN_WORKFLOW_TYPE,
  approvalSignal,
  childStatusSignal,
  closeThreadUpdate,
  decideApprovalUpdate,
  sendMessageUpdate,
  statusQuery,
  userMessageSignal,
  type AgentRunWorkflow,
} from '../../src/contract/agent-run-api';
import { fail, reply, toolCall } from '../../test/support/fake-anthropic';
import { complete, pendingCall, phase, until, type ScenarioGroup } from './support';

const look = () => reply(toolCall('list_files', { path: '.' }));
const step = (n: number) => reply(toolCall('step', { n, size: 10 }));
const writeFile = (file: string, content = 'x') => toolCall('write_file', { path: file, content });

/** Gates the first model reply of a scenario, so messages can be sent while the model is answering. */
function gate(): { held: Promise<void>; open: () => void } {
  let open!: () => void;
  const held = new Promise<void>((resolve) => (open = resolve));
  return { held, open };
}
const handover = gate();
const sameText = gate();
const fullInbox = gate();

/** Settles the promise, or gives up after `ms` (a handler the old code leaves waiting forever). */
const settled = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise.then(() => true, () => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

/** Waits until the thread is idle with `count` completions, then closes it. */
async function closeWhenIdle(handle: WorkflowHandle, count: () => Promise<number>): Promise<void> {
  await until(async () => {
    const status = await handle.query(statusQuery);
    return status.phase === 'idle' && (status.completionCount ?? status.completions.length) === (await count()) ? true : undefined;
  }, `${handle.workflowId} to be idle`, 60_000);
  await handle.executeUpdate(closeThreadUpdate, { args: [] });
  await handle.result();
}

export const interleavings: ScenarioGroup = {
  scripts(fake) {
    // The summarizer's prompt starts with "The task: <task>"; registered before the team group's catch-all.
    fake.script('The task: fixture: x-failed-loop', [fail(400)]);
    fake.script('fixture: x-failed-loop', [step(1), step(2), step(3).withUsage({ input_tokens: 1_900 })]);
    fake.script('fixture: x-at-start', [complete('first'), complete('second'), complete('third')]);
    fake.script('fixture: x-handover', [look().until(handover.held), look(), look(), look(), look(), complete('answer 0'), complete('answer 1'), complete('answer 2'), complete('answer 3')]);
    fake.script('fixture: x-overtaken', [reply(writeFile('o.txt', 'original')), complete('wrote it')]);
    fake.script('fixture: x-cancelled-edit', [reply(writeFile('c.txt', 'original'))]);
    fake.script('fixture: x-closed-child sub', [reply(writeFile('child.txt'))]);
    fake.script('fixture: x-closed-child', [reply(toolCall('delegate_task', { agent: 'specialist', task: 'fixture: x-closed-child sub' })), complete('went on without it')]);
    fake.script('fixture: x-orphan', [reply(writeFile('orphan.txt')), complete('orphan done')]);
    fake.script('fixture: x-child-status', [reply(writeFile('status.txt')), complete('status done')]);
    fake.script('fixture: x-same-text', [complete('first').until(sameText.held), complete('second'), complete('third')]);
    fake.script('fixture: x-full-inbox', [complete('answer 0').until(fullInbox.held), ...Array.from({ length: 22 }, (_, i) => complete(`answer ${i + 1}`))]);
  },
  scenarios: {
    async 'x-at-start'({ client, taskQueue, id }) {
      // A follow-up sent with the start itself (the old code refused it: no handler yet), and one right after.
      const startWorkflowOperation = new WithStartWorkflowOperation<AgentRunWorkflow>(AGENT_RUN_WORKFLOW_TYPE, {
        workflowId: id,
        taskQueue,
        args: [{ agent: 'fixture', task: 'fixture: x-at-start', followUps: true }],
        workflowIdConflictPolicy: 'FAIL',
      });
      const withStart = client.workflow.executeUpdateWithStart(sendMessageUpdate, { args: [{ text: 'sent with the start' }], startWorkflowOperation }).then(() => true, () => false);
      const handle = await startWorkflowOperation.workflowHandle();
      await handle.signal(userMessageSignal, { text: 'sent right after' });
      const taken = await withStart;
      await closeWhenIdle(handle, async () => (taken ? 3 : 2));
      return handle;
    },
    async 'x-handover'({ client, taskQueue, id, save }) {
      // Three follow-ups at once while the history fills up: the thread continues as new with messages queued.
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: x-handover', followUps: true, historyBudget: { maxEvents: 50 } }, { taskQueue, workflowId: id });
      await phase(handle, 'running');
      const updates = await Promise.all([1, 2, 3].map((n) => handle.startUpdate(sendMessageUpdate, { args: [{ text: `message ${n}` }], waitForStage: WorkflowUpdateStage.ACCEPTED })));
      handover.open();
      // The old code never answers them (it waits for the inbox to drain, which the next link does).
      if (!(await settled(Promise.all(updates.map((u) => u.result())), 15_000))) return handle;
      await closeWhenIdle(handle, async () => 4);
      // The last link, and the first: it hands over with the follow-ups still queued.
      await save('last-link', client.workflow.getHandle(id));
      return client.workflow.getHandle(id, handle.firstExecutionRunId);
    },
    async 'x-overtaken'({ client, taskQueue, id }) {
      // An edited decision, and a plain approval right behind it while the edit is checked.
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: x-overtaken' }, { taskQueue, workflowId: id });
      const callId = await pendingCall(handle);
      const edited = await handle.startUpdate(decideApprovalUpdate, { args: [{ callId, decision: 'approve', approver: 'ann', arguments: { path: 'o.txt', content: 'edited' } }], waitForStage: WorkflowUpdateStage.ACCEPTED });
      await handle.signal(approvalSignal, { callId, decision: 'approve', approver: 'bob' });
      await edited.result().catch(() => undefined);
      await handle.result();
      return handle;
    },
    async 'x-cancelled-edit'({ client, taskQueue, id }) {
      // Cancelled while an edited decision is being checked.
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: x-cancelled-edit' }, { taskQueue, workflowId: id });
      const callId = await pendingCall(handle);
      const edited = await handle.startUpdate(decideApprovalUpdate, { args: [{ callId, decision: 'approve', arguments: { path: 'c.txt', content: 'edited' } }], waitForStage: WorkflowUpdateStage.ACCEPTED });
      await handle.cancel();
      await edited.result().catch(() => undefined);
      await handle.result().catch(() => undefined);
      return handle;
    },
    async 'x-closed-child'({ client, taskQueue, id, save }) {
      // The sub-agent's run ends, and a decision for its parked call reaches the parent right after.
      const handle = await startRun(client, { agent: 'coordinator', task: 'fixture: x-closed-child' }, { taskQueue, workflowId: id });
      const callId = await pendingCall(handle);
      const child = client.workflow.getHandle(`${id}/sub-toolu_0_0`);
      await child.terminate('fixture: the sub-agent run is gone');
      await handle.signal(approvalSignal, { callId, decision: 'approve' });
      await handle.result().catch(() => undefined);
      await save('child', child);
      return handle;
    },
    async 'x-failed-loop'({ client, taskQueue, id }) {
      // The summarizer refuses the compaction: the run fails from inside its loop.
      const handle = await startRun(client, { agent: 'tiny', task: 'fixture: x-failed-loop' }, { taskQueue, workflowId: id });
      await handle.result().catch(() => undefined);
      return handle;
    },
    async 'x-orphan'({ client, taskQueue, id }) {
      // A sub-agent's run whose parent does not exist: telling it what the run waits for fails.
      const parent = `${id}-missing-parent`;
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: x-orphan', parent: { workflowId: parent, rootWorkflowId: parent, depth: 1 } }, { taskQueue, workflowId: id });
      await handle.signal(approvalSignal, { callId: await pendingCall(handle), decision: 'approve' });
      await handle.result();
      return handle;
    },
    async 'x-child-status'({ client, taskQueue, id }) {
      // A malformed childStatus, then the approval.
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: x-child-status' }, { taskQueue, workflowId: id });
      const callId = await pendingCall(handle);
      await handle.signal(childStatusSignal, { workflowId: 'nobody', waiting: { approvals: 'not a list' } } as never);
      await handle.signal(approvalSignal, { callId, decision: 'approve' });
      await handle.result();
      return handle;
    },
    async 'x-same-text'({ client, taskQueue, id }) {
      // Two follow-ups with the same text while the agent works.
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: x-same-text', followUps: true }, { taskQueue, workflowId: id });
      await phase(handle, 'running');
      const updates = await Promise.all([1, 2].map(() => handle.startUpdate(sendMessageUpdate, { args: [{ text: 'same' }], waitForStage: WorkflowUpdateStage.ACCEPTED })));
      sameText.open();
      await Promise.all(updates.map((u) => u.result()));
      await closeWhenIdle(handle, async () => 3);
      return handle;
    },
    async 'x-full-inbox'({ client, taskQueue, id }) {
      // 22 follow-ups while the agent works: more than the inbox takes now.
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: x-full-inbox', followUps: true }, { taskQueue, workflowId: id });
      await phase(handle, 'running');
      for (let n = 1; n <= 22; n++) await handle.signal(userMessageSignal, { text: `message ${n}` });
      fullInbox.open();
      const refused = async () => (await handle.query(statusQuery)).ignored.filter((i) => i.kind === 'userMessage').length;
      await closeWhenIdle(handle, async () => 23 - (await refused()));
      return handle;
    },
  },
};
