// The scenarios captured since the first release: the simple single-agent path.
import type { WorkflowHandle } from '@temporalio/client';
import { changePreferenceSignal, preferencesWorkflowId, PREFERENCES_WORKFLOW_TYPE } from '../../src/core/approvals/preference-messages';
import { startRun } from '../../src/client/start-run';
import { approvalSignal, statusQuery } from '../../src/contract/agent-run-api';
import { fail, reply, toolCall } from '../../test/support/fake-anthropic';
import { callId, stepScript } from '../../test/support/step-script';
import { complete, phase, until, type ScenarioGroup } from './support';

export const firstRelease: ScenarioGroup = {
  scripts(fake) {
    fake.script('fixture: completed', [reply(toolCall('list_files', { path: '.' })), complete('listed')]);
    fake.script('fixture: approved', [reply(toolCall('write_file', { path: 'a.txt', content: 'hi' })), complete('written')]);
    fake.script('fixture: parked approval', [reply(toolCall('write_file', { path: 'b.txt', content: 'hi' }))]);
    // Twelve 503s: as many attempts as the first release's model retry policy allowed, so its run fails.
    fake.script('fixture: outage', [reply(toolCall('list_files', { path: '.' })), ...Array.from({ length: 12 }, () => fail(503, { retryAfterMs: 20 })), complete('unreachable')]);
    fake.script('fixture: parked question', [reply(toolCall('need_more_information', { question: 'Which file?' }))]);
    fake.script(
      'fixture: continued',
      stepScript((step) =>
        step < 12 ? reply(toolCall('step', { n: step }, callId(step))) : reply(toolCall('complete_task', { summary: 'steps done', status: 'success' }, callId(step))),
      ),
    );
  },
  scenarios: {
    async completed({ client, taskQueue, id }) {
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: completed' }, { taskQueue, workflowId: id });
      await handle.result();
      return handle;
    },
    async 'approved-completed'({ client, taskQueue, id }) {
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: approved', user: 'fixture-user' }, { taskQueue, workflowId: id });
      await phase(handle, 'waiting_approval');
      const status = await handle.query(statusQuery);
      await handle.signal(approvalSignal, { callId: status.pendingApprovals[0]!.callId, decision: 'approve', approver: 'ana' });
      await handle.result();
      return handle;
    },
    async 'failed-model-outage'({ client, taskQueue, id }) {
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: outage' }, { taskQueue, workflowId: id });
      await handle.result().catch(() => undefined);
      return handle;
    },
    async 'parked-approval'({ client, taskQueue, id }) {
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: parked approval' }, { taskQueue, workflowId: id });
      await phase(handle, 'waiting_approval');
      return handle;
    },
    async 'parked-question'({ client, taskQueue, id }) {
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: parked question' }, { taskQueue, workflowId: id });
      await phase(handle, 'waiting_input');
      return handle;
    },
    async 'continued-as-new'({ client, taskQueue, id, save }) {
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: continued', historyBudget: { maxEvents: 50 } }, { taskQueue, workflowId: id });
      await handle.result();
      // The second link: the run as it resumes from the checkpoint.
      await save('last-link', client.workflow.getHandle(id));
      // The first link: it ends with the continue-as-new that carries the checkpoint.
      return client.workflow.getHandle(id, handle.firstExecutionRunId);
    },
    async 'continued-while-parked'({ client, taskQueue, id, save }) {
      // Parks on an approval, then ignored signals grow the history until the run hands over to a new
      // link while it waits: the checkpoint carries a turn in progress with a pending approval.
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: parked approval', historyBudget: { maxEvents: 50 } }, { taskQueue, workflowId: id });
      await phase(handle, 'waiting_approval');
      for (let i = 0; (await handle.describe()).runId === handle.firstExecutionRunId; i += 1) {
        await handle.signal(approvalSignal, { callId: `no-such-call-${i}`, decision: 'approve' });
      }
      await phase(handle, 'waiting_approval');
      await save('last-link', client.workflow.getHandle(id));
      return client.workflow.getHandle(id, handle.firstExecutionRunId);
    },
    async preferences({ client, taskQueue }) {
      const workflowId = preferencesWorkflowId(`fixture-${Date.now()}`);
      const send = (tool: string, preference: 'always' | 'never' | 'revoke') =>
        client.workflow.signalWithStart(PREFERENCES_WORKFLOW_TYPE, { workflowId, taskQueue, args: [], signal: changePreferenceSignal, signalArgs: [{ tool, preference, by: 'ana' }] });
      await send('write_file', 'always');
      await send('shell', 'never');
      await send('write_file', 'revoke');
      const handle: WorkflowHandle = client.workflow.getHandle(workflowId);
      await until(async () => {
        const events = (await handle.fetchHistory()).events ?? [];
        const signals = events.filter((e) => e.workflowExecutionSignaledEventAttributes).length;
        // Done once a workflow task completed after the last signal (a memo upsert may follow it).
        const lastIndex = (has: (e: (typeof events)[number]) => unknown) => events.reduce((at, e, i) => (has(e) ? i : at), -1);
        const lastSignal = lastIndex((e) => e.workflowExecutionSignaledEventAttributes);
        const lastTask = lastIndex((e) => e.workflowTaskCompletedEventAttributes);
        return signals === 3 && lastTask > lastSignal ? true : undefined;
      }, 'the preferences workflow to take its signals');
      return handle;
    },
  },
};
