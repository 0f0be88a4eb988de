// `--prefix` and `--always-tool` / `--never-tool` on agentctl approve/reject: how far a remembered
// choice reaches, seen in `preferences` and in the same person's next run. Real binary, real server.
import { describe, expect, it } from 'vitest';
import { preferencesWorkflowId } from '../../src/core/approvals/preference-messages';
import { statusQuery } from '../../src/contract/agent-run-api';
import { toolResultsIn, waitFor, waitForApprovals, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../support/temporal';
import { agentctl as runAgentctl } from './agentctl-process';

const agentctl = (...args: string[]) => runAgentctl(args, { TEMPORAL_ADDRESS: temporalAddress(), USER: 'cli-tester' });
const CLI_WAIT_MS = 60_000;
const complete = () => reply(toolCall('complete_task', { summary: 'done', status: 'success' }));

describe('agentctl approve/reject: the reach of a remembered choice', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  async function rememberedScopes(person: string): Promise<string[]> {
    return waitFor(async () => {
      const out = await agentctl('preferences', person, '--json');
      const parsed = JSON.parse(out.stdout) as { entries: { scope: string }[] };
      return parsed.entries.length > 0 ? parsed.entries.map((e) => e.scope) : undefined;
    }, 'the saved preference', CLI_WAIT_MS);
  }

  it('approve --always --prefix covers later commands starting with those words, and no others', async () => {
    const person = uniqueId('pat');
    const first = uniqueId('prefix-first');
    const later = uniqueId('prefix-later');
    fake.script(first, [reply(toolCall('shell', { command: 'echo alpha one' })), complete()]);
    fake.script(later, [reply(toolCall('shell', { command: 'echo alpha two' })), reply(toolCall('shell', { command: 'echo beta' })), complete()]);
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      try {
        const handle = await start({ agent: 'general', task: first, user: person });
        await waitForApprovals(handle, 1);
        expect((await agentctl('approve', handle.workflowId, '--always', '--prefix', 'echo alpha', '--approver', person)).code).toBe(0);
        expect((await handle.result()).status).toBe('completed');
        expect(await rememberedScopes(person)).toEqual(['shell: echo alpha *']);

        // The next run's "echo alpha two" runs without asking; "echo beta" is outside the prefix and parks.
        const next = await start({ agent: 'general', task: later, user: person });
        const parked = await waitForApprovals(next, 1);
        expect(parked.pendingApprovals).toEqual([expect.objectContaining({ callId: 'toolu_1_0', tool: 'shell' })]);
        expect(toolResultsIn(fake.requestsFor(later)[1])[0]?.content).toContain('alpha two');
        await next.signal('approval', { callId: 'toolu_1_0', decision: 'approve', approver: person });
        expect((await next.result()).status).toBe('completed');
      } finally {
        await client.workflow.getHandle(preferencesWorkflowId(person)).terminate('test cleanup').catch(() => undefined);
      }
    });
  });

  it('reject --never-tool refuses every later call of the tool, whatever its arguments', async () => {
    const person = uniqueId('quinn');
    const first = uniqueId('never-tool-first');
    const later = uniqueId('never-tool-later');
    fake.script(first, [reply(toolCall('write_file', { path: 'a.md', content: 'x' })), complete()]);
    fake.script(later, [reply(toolCall('write_file', { path: 'other/b.md', content: 'y' })), complete()]);
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      try {
        const handle = await start({ agent: 'general', task: first, user: person });
        await waitForApprovals(handle, 1);
        expect((await agentctl('reject', handle.workflowId, '--never-tool', '--approver', person)).code).toBe(0);
        expect((await handle.result()).status).toBe('completed');
        expect(await rememberedScopes(person)).toEqual(['write_file (every call)']);

        const next = await start({ agent: 'general', task: later, user: person });
        expect((await next.result()).status).toBe('completed');
        expect((await next.query(statusQuery)).pendingApprovals).toEqual([]);
        const told = toolResultsIn(fake.requestsFor(later)[1])[0];
        expect(told).toMatchObject({ tool_use_id: 'toolu_0_0', is_error: true });
      } finally {
        await client.workflow.getHandle(preferencesWorkflowId(person)).terminate('test cleanup').catch(() => undefined);
      }
    });
  });
});
