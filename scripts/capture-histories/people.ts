// Scenarios of the paths issues 22 and 23 added after the d6789a0 capture: steering a working run,
// switching its permission mode, a batch of decisions, an edited approval, a paused model turn
// continued in place, and a fork of a finished run.
import { startRun } from '../../src/client/start-run';
import { forkRun } from '../../src/client/fork-run';
import { approvalSignal, decideApprovalsUpdate, decideApprovalUpdate, sendMessageUpdate, setModeUpdate, statusQuery, userMessageSignal } from '../../src/contract/agent-run-api';
import { reply, serverToolUse, text, thinking, toolCall, webSearchResult } from '../../test/support/fake-anthropic';
import { complete, pendingCall, phase, until, type ScenarioGroup } from './support';

const write = (file: string, content = 'x') => toolCall('write_file', { path: file, content });

export const people: ScenarioGroup = {
  scripts(fake) {
    fake.script('fixture: steered', [reply(write('steer.txt')), complete('steered')]);
    fake.script('fixture: mode', [reply(write('m1.txt')), reply(write('m2.txt')), complete('wrote both')]);
    fake.script('fixture: batch', [reply(write('b1.txt'), write('b2.txt')), complete('wrote the batch')]);
    fake.script('fixture: edited', [reply(write('e.txt', 'original')), complete('wrote the edit')]);
    // The API pauses a long server tool turn; the continuation request ends with the paused turn, so
    // the fake counts one assistant message and answers with the second slot.
    fake.script('fixture: paused', [
      reply(thinking('Two searches are needed.'), serverToolUse('web_search', { query: 'first' }, 'srvtoolu_pa'), webSearchResult('srvtoolu_pa', ['https://example.com/a']), serverToolUse('web_search', { query: 'second' }, 'srvtoolu_pb')).withStopReason('pause_turn'),
      reply(webSearchResult('srvtoolu_pb', ['https://example.com/b']), text('Both searches agree.'), toolCall('complete_task', { summary: 'researched', status: 'success' })),
    ]);
    fake.script('fixture: fork', [reply(text('Looking around first.'), toolCall('list_files', { path: '.' })), complete('listed')]);
  },
  scenarios: {
    async steered({ client, taskQueue, id }) {
      // A plain run (no followUps) takes both message forms while its write is parked, as steering.
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: steered' }, { taskQueue, workflowId: id });
      const callId = await pendingCall(handle);
      await handle.executeUpdate(sendMessageUpdate, { args: [{ text: 'use tabs, not spaces', sender: 'ana' }] });
      await handle.signal(userMessageSignal, { text: 'and keep it short' });
      await handle.signal(approvalSignal, { callId, decision: 'approve', approver: 'ana' });
      await handle.result();
      return handle;
    },
    async 'mode-switch'({ client, taskQueue, id }) {
      // Switched to acceptEdits while the first write is parked: that one still waits, the second runs.
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: mode' }, { taskQueue, workflowId: id });
      const callId = await pendingCall(handle);
      await handle.executeUpdate(setModeUpdate, { args: [{ mode: 'acceptEdits', by: 'ana', reason: 'fixture' }] });
      await handle.signal(approvalSignal, { callId, decision: 'approve', approver: 'ana' });
      await handle.result();
      return handle;
    },
    async 'batch-approved'({ client, taskQueue, id }) {
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: batch' }, { taskQueue, workflowId: id });
      await phase(handle, 'waiting_approval');
      const calls = await until(async () => {
        const pending = (await handle.query(statusQuery)).pendingApprovals.map((p) => p.callId);
        return pending.length === 2 ? pending : undefined;
      }, 'both calls to park');
      await handle.executeUpdate(decideApprovalsUpdate, { args: [{ decisions: calls.map((callId) => ({ callId, decision: 'approve' as const, approver: 'ana' })) }] });
      await handle.result();
      return handle;
    },
    async 'edited-approval'({ client, taskQueue, id }) {
      const handle = await startRun(client, { agent: 'fixture', task: 'fixture: edited' }, { taskQueue, workflowId: id });
      const callId = await pendingCall(handle);
      await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId, decision: 'approve', approver: 'ana', arguments: { path: 'e.txt', content: 'edited' } }] });
      await handle.result();
      return handle;
    },
    async 'paused-turn'({ client, taskQueue, id }) {
      const handle = await startRun(client, { agent: 'researcher', task: 'fixture: paused' }, { taskQueue, workflowId: id });
      await handle.result();
      return handle;
    },
    async forked({ client, taskQueue, id, save }) {
      // The original completes in two iterations; the fork starts from its state after the first.
      const original = await startRun(client, { agent: 'fixture', task: 'fixture: fork' }, { taskQueue, workflowId: id });
      await original.result();
      await save('original', original);
      const { handle } = await forkRun(client, id, { iteration: 1, task: 'list them again', taskQueue });
      await handle.result();
      return handle;
    },
  },
};
