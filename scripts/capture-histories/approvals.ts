// Scenarios of a person in the loop: rejected and timed-out calls, an answered question,
// approve_always with its preference signal, and the acknowledged updates.
import { preferencesWorkflowId } from '../../src/core/approvals/preference-messages';
import { startRun } from '../../src/client/start-run';
import { approvalSignal, closeThreadUpdate, decideApprovalUpdate, sendMessageUpdate, statusQuery, submitReplyUpdate, userReplySignal } from '../../src/contract/agent-run-api';
import { reply, text, toolCall } from '../../test/support/fake-anthropic';
import { complete, pendingCall, phase, until, type ScenarioGroup } from './support';

const write = (file: string, content = 'x') => toolCall('write_file', { path: file, content });

export const approvals: ScenarioGroup = {
  scripts(fake) {
    fake.script('fixture: rejected', [reply(write('no.txt')), reply(text('Understood.'), toolCall('complete_task', { summary: 'left it', status: 'partial' }))]);
    fake.script('fixture: timeout', [reply(write('late.txt')), complete('went on without it')]);
    fake.script('fixture: answered', [reply(toolCall('need_more_information', { question: 'Which file?', context: 'There are two.' })), complete('answered')]);
    fake.script('fixture: always', [reply(write('a.txt', 'one')), reply(write('a.txt', 'two')), complete('wrote twice')]);
    fake.script('fixture: updates', [
      reply(write('u.txt')),
      reply(toolCall('need_more_information', { question: 'Proceed?' })),
      complete('first answer'),
      complete('second answer'),
    ]);
  },
  scenarios: {
    async rejected({ client, taskQueue, id }) {
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: rejected' }, { taskQueue, workflowId: id });
      await handle.signal(approvalSignal, { callId: await pendingCall(handle), decision: 'reject', reason: 'not now', approver: 'ana' });
      await handle.result();
      return handle;
    },
    async 'approval-timeout'({ client, taskQueue, id }) {
      // Nobody decides: the approval's timer fires and the call is refused as "timed out".
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: timeout', approvalTimeoutSeconds: 1 }, { taskQueue, workflowId: id });
      await handle.result();
      return handle;
    },
    async 'answered-question'({ client, taskQueue, id }) {
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: answered' }, { taskQueue, workflowId: id });
      await phase(handle, 'waiting_input');
      await handle.signal(userReplySignal, { text: 'the second one' });
      await handle.result();
      return handle;
    },
    async 'approve-always'({ client, taskQueue, id, save }) {
      // The decision is saved to the person's preferences workflow (an activity signals it), and the
      // second write to the same path runs without asking.
      const user = `fixture-always-${Date.now()}`;
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: always', user }, { taskQueue, workflowId: id });
      await handle.signal(approvalSignal, { callId: await pendingCall(handle), decision: 'approve_always', approver: user });
      await handle.result();
      const preferences = client.workflow.getHandle(preferencesWorkflowId(user));
      await until(async () => {
        const events = (await preferences.fetchHistory()).events ?? [];
        const lastIndex = (has: (e: (typeof events)[number]) => unknown) => events.reduce((at, e, i) => (has(e) ? i : at), -1);
        const lastSignal = lastIndex((e) => e.workflowExecutionSignaledEventAttributes);
        const lastTask = lastIndex((e) => e.workflowTaskCompletedEventAttributes);
        return lastSignal >= 0 && lastTask > lastSignal ? true : undefined;
      }, 'the preferences workflow to take the signal');
      await save('preferences', preferences);
      return handle;
    },
    async updates({ client, taskQueue, id }) {
      // One thread that takes each acknowledged update: decideApproval, submitReply, sendMessage and closeThread.
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: updates', followUps: true }, { taskQueue, workflowId: id });
      await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: await pendingCall(handle), decision: 'approve', approver: 'ana' }] });
      await phase(handle, 'waiting_input');
      await handle.executeUpdate(submitReplyUpdate, { args: [{ text: 'yes, go ahead' }] });
      await phase(handle, 'idle');
      await handle.executeUpdate(sendMessageUpdate, { args: [{ text: 'and one more thing' }] });
      await until(async () => ((await handle.query(statusQuery)).completions.length === 2 ? true : undefined), 'the second answer');
      await handle.executeUpdate(closeThreadUpdate, { args: [] });
      await handle.result();
      return handle;
    },
  },
};
