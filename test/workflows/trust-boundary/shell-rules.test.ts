// Approval rules that understand shell, on a real worker: what a rule allows is exactly what runs.
import { describe, expect, it } from 'vitest';
import type { Client } from '@temporalio/client';
import { preferencesWorkflowId } from '../../../src/core/approvals/preference-messages';
import { approvalSignal, statusQuery } from '../../../src/contract/agent-run-api';
import { waitFor, waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

const shell = (...commands: string[]) => reply(...commands.map((command) => toolCall('shell', { command })));
const done = reply(toolCall('complete_task', { summary: 'done', status: 'success' }));

describe('shell-aware approval rules', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('runs a command an allow rule covers, and parks a chained command that slips in something else', async () => {
    const task = uniqueId('chain');
    fake.script(task, [shell('ls', 'ls ; echo x >> f', 'ls -la'), done]);
    // One rule by words, one by the regex docs/guides/approvals.md used to show: neither may allow the chain.
    const toolApproval = { alwaysApproved: [{ tool: 'shell', command: 'ls' }, { tool: 'shell', argument: 'command', argumentsMatch: '^(ls|git status)( |$)' }] };
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task, toolApproval });
      const parked = await waitForApprovals(handle);
      expect(parked.pendingApprovals.map((p) => p.callId)).toEqual(['toolu_0_1']);
      expect(parked.pendingApprovals[0]!.commands).toEqual(['ls', 'echo x']);
      expect(parked.pendingApprovals[0]!.reason).toContain('"echo x"');
      await handle.signal(approvalSignal, { callId: 'toolu_0_1', decision: 'reject' });
      expect((await handle.result()).status).toBe('completed');
    });
  });

  it('rejects every spelling of a forbidden command without asking: rm -fr /, rm -r -f /, rm  -rf /', async () => {
    const task = uniqueId('rm');
    fake.script(task, [shell('rm -fr /', 'rm -r -f /', 'rm  -rf /', 'cd /tmp && sudo rm -rf /'), done]);
    const toolApproval = { alwaysRejected: [{ tool: 'shell', command: 'rm -rf /' }], alwaysApproved: ['shell'] };
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task, toolApproval });
      expect((await handle.result()).status).toBe('completed');
      const status = await handle.query(statusQuery);
      expect(status.decisions.map((d) => [d.callId, d.decision])).toEqual([0, 1, 2, 3].map((n) => [`toolu_0_${n}`, 'policy_reject']));
      expect(status.events.filter((e) => e.name === 'approvalRequested')).toEqual([]);
      expect(status.events.filter((e) => e.name === 'toolStarted')).toEqual([]);
    });
  });

  it('refuses a command rule that is not one simple command, naming it, before the run starts working', async () => {
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task: uniqueId('bad-rule'), toolApproval: { alwaysApproved: [{ tool: 'shell', command: 'ls; rm x' }] } });
      const error = await handle.result().catch((e: unknown) => e as Error);
      expect(String((error as { cause?: Error }).cause?.message)).toMatch(/ls; rm x/);
    });
  });

  it('remembers "always" for npm test, which does not allow npm publish', async () => {
    const task = uniqueId('npm');
    const person = uniqueId('pat');
    fake.script(task, [shell('npm test'), shell('npm test'), shell('npm publish'), done]);
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      try {
        const handle = await start({ agent: 'general', task, user: person });
        await waitForApprovals(handle);
        await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve_always', approver: person });
        // The second `npm test` runs without asking; `npm publish` parks.
        const parked = await waitFor(async () => {
          const s = await handle.query(statusQuery);
          return s.phase === 'waiting_approval' && s.iteration === 3 ? s : undefined;
        }, 'npm publish to park');
        expect(parked.pendingApprovals.map((p) => p.callId)).toEqual(['toolu_2_0']);
        expect(parked.recentToolCalls.find((c) => c.callId === 'toolu_1_0')).toMatchObject({ outcome: expect.stringMatching(/success|error/) });
        expect(parked.events.filter((e) => e.name === 'approvalRequested').map((e) => e.data.callId)).toEqual(['toolu_0_0', 'toolu_2_0']);
        await handle.signal(approvalSignal, { callId: 'toolu_2_0', decision: 'reject', approver: person });
        await handle.result();
      } finally {
        await endPreferences(client, person);
      }
    });
  });
});

async function endPreferences(client: Client, user: string) {
  await client.workflow.getHandle(preferencesWorkflowId(user)).terminate('test cleanup').catch(() => undefined);
}
