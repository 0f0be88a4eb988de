// `agentctl preferences` shows whether each remembered "always" lets its calls write: the real binary,
// a real run that stored the choices, and an entry stored the way releases before the flag stored it.
import { describe, expect, it } from 'vitest';
import { changePreferenceSignal, preferencesWorkflowId } from '../../src/core/approvals/preference-messages';
import { readPreferences } from '../../src/runtime/approvals/read-preferences';
import { approvalSignal } from '../../src/contract/agent-run-api';
import { waitFor, waitForApprovals, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../support/temporal';
import { agentctl as runAgentctl } from './agentctl-process';

const agentctl = (...args: string[]) => runAgentctl(args, { TEMPORAL_ADDRESS: temporalAddress(), USER: 'cli-tester' });
const CLI_WAIT_MS = 60_000;

describe('agentctl preferences: the writes flag', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('marks an "always" given for a command that writes "writes", one for a read-only command and an old entry without the flag "read-only"', async () => {
    const person = uniqueId('wren');
    const task = uniqueId('writes-flag');
    fake.script(task, [reply(toolCall('shell', { command: 'echo hi > out.txt' }), toolCall('shell', { command: 'ls' })), reply(toolCall('complete_task', { summary: 'done', status: 'success' }))]);
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      const store = client.workflow.getHandle(preferencesWorkflowId(person));
      try {
        const handle = await start({ agent: 'general', task, user: person });
        await waitForApprovals(handle, 2);
        await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve_always', approver: person });
        await handle.signal(approvalSignal, { callId: 'toolu_0_1', decision: 'approve_always', approver: person });
        expect((await handle.result()).status).toBe('completed');
        // A choice as a release before the flag sent it: no `writes` at all.
        await store.signal(changePreferenceSignal, { tool: 'write_file', preference: 'always', match: { kind: 'argument', name: 'path', value: 'old.md', prefix: false }, by: person });
        await waitFor(async () => ((await readPreferences(client, person)).length === 3 ? true : undefined), 'three stored choices', CLI_WAIT_MS);

        const listed = await agentctl('preferences', person);
        expect(listed.code).toBe(0);
        expect(listed.stdout).toMatch(/#1\s+always writes\s+shell: echo hi \(writing out.txt\) {2}/);
        expect(listed.stdout).toMatch(/#2\s+always read-only\s+shell: ls {2}/);
        expect(listed.stdout).toMatch(/#3\s+always read-only\s+write_file path old\.md {2}/);

        const json = JSON.parse((await agentctl('preferences', person, '--json')).stdout) as { entries: { scope: string; writes: boolean; network: boolean }[] };
        expect(json.entries.map((e) => [e.scope, e.writes, e.network])).toEqual([
          ['shell: echo hi (writing out.txt)', true, false],
          ['shell: ls', false, false],
          ['write_file path old.md', false, false],
        ]);
        // A choice given in a run with the network says so.
        await store.signal(changePreferenceSignal, { tool: 'shell', preference: 'always', match: { kind: 'command', pattern: { pattern: 'git fetch', words: ['git', 'fetch'] } }, by: person, network: true });
        await waitFor(async () => ((await readPreferences(client, person)).length === 4 ? true : undefined), 'four stored choices', CLI_WAIT_MS);
        expect((await agentctl('preferences', person)).stdout).toMatch(/#4\s+always read-only\+network\s+shell: git fetch {2}/);
      } finally {
        await store.terminate('test cleanup').catch(() => undefined);
      }
    });
  });
});
