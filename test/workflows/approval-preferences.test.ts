// A person's remembered "always" applies to their later runs until they revoke it; once revoked
// (`agentctl preferences <user> --revoke`), the next run asks again.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { preferencesQuery, preferencesWorkflowId } from '../../src/core/approvals/preference-messages';
import { approvalSignal, statusQuery } from '../../src/contract/agent-run-api';
import { agentctl } from '../client/agentctl-process';
import { waitFor, waitForApprovals, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../support/temporal';

const complete = () => reply(toolCall('complete_task', { summary: 'done', status: 'success' }));
const write = (file: string) => reply(toolCall('write_file', { path: file, content: 'x' }));

describe('approval preferences', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('asks again in the next run once the person has revoked their "always"', async () => {
    const user = uniqueId('rita');
    const [remember, trusted, revoked] = [uniqueId('pref-remember'), uniqueId('pref-trusted'), uniqueId('pref-revoked')];
    for (const task of [remember, trusted, revoked]) fake.script(task, [write('same.txt'), complete()]);
    await withAgentWorker(bed.harness(), async ({ start, client, taskQueue, workspace }) => {
      const store = client.workflow.getHandle(preferencesWorkflowId(user));
      try {
        const first = await start({ agent: 'general', task: remember, user });
        await waitForApprovals(first);
        await first.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve_always' });
        expect((await first.result()).status).toBe('completed');
        await waitFor(async () => ((await store.query(preferencesQuery)).length === 1 ? true : undefined), 'the choice to be saved');

        // While the choice stands, the same call runs without asking.
        const second = await start({ agent: 'general', task: trusted, user });
        expect((await second.result()).status).toBe('completed');
        expect((await second.query(statusQuery)).events.filter((e) => e.name === 'approvalRequested')).toEqual([]);

        const cli = await agentctl(['preferences', user, '--revoke', 'write_file'], { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue, USER: user });
        expect(cli.code).toBe(0);
        expect(cli.stdout).toContain('Runs that start from now on ask again.');
        await waitFor(async () => ((await store.query(preferencesQuery)).length === 0 ? true : undefined), 'the choice to be forgotten');

        const third = await start({ agent: 'general', task: revoked, user });
        try {
          const parked = await waitForApprovals(third);
          expect(parked.pendingApprovals.map((p) => p.callId)).toEqual(['toolu_0_0']);
          await third.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'reject' });
          expect((await third.result()).status).toBe('completed');
        } finally {
          await third.terminate('test cleanup').catch(() => undefined);
        }
        expect(existsSync(path.join(workspace, 'same.txt'))).toBe(true);
      } finally {
        await store.terminate('test cleanup').catch(() => undefined);
      }
    });
  });
});
