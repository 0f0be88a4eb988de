// The paths issue 30 changed behind the patch `contained-calls`, as the release before it ran them: in
// acceptEdits a custom write tool ran unasked and a write_file to a protected path went on to the
// tool (which refused it), and under a rule with writes such a write went on to the tool too. Today's
// code asks a person for both; replaying these, it must keep the old verdicts.
import { startRun } from '../../src/client/start-run';
import { reply, toolCall } from '../../test/support/fake-anthropic';
import { complete, type ScenarioGroup } from './support';

export const contained: ScenarioGroup = {
  scripts(fake) {
    fake.script('fixture: accept edits, unconfined', [reply(toolCall('write_file', { path: '.envrc', content: 'x' }), toolCall('gated_step', { n: 1 })), complete('wrote')]);
    fake.script('fixture: protected write by rule', [reply(toolCall('write_file', { path: '.gitconfig', content: '[core]' })), complete('tried')]);
  },
  scenarios: {
    async 'accept-edits-unconfined'({ client, taskQueue, id }) {
      const handle = await startRun(client, { agent: 'fixture-edits', task: 'fixture: accept edits, unconfined', mode: 'acceptEdits' }, { taskQueue, workflowId: id });
      await handle.result();
      return handle;
    },
    async 'protected-write-by-rule'({ client, taskQueue, id }) {
      const toolApproval = { alwaysApproved: [{ tool: 'write_file', writes: true }] };
      const handle = await startRun(client, { agent: 'fixture-edits', task: 'fixture: protected write by rule', toolApproval }, { taskQueue, workflowId: id });
      await handle.result();
      return handle;
    },
  },
};
