// The end-to-end half of the hostile-command corpus (test/core/approvals/shell/hostile-commands.json):
// each marked entry goes through the public run input (its rules in `toolApproval`, its remembered
// choices through the preferences workflow), a scripted model sends it as a `shell` call, and the
// worker runs the real bwrap sandbox and shell. Whatever the policy says, nothing of it may run.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Client } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { changePreferenceSignal, PREFERENCES_WORKFLOW_TYPE, preferencesWorkflowId } from '../../../src/core/approvals/preference-messages';
import { readPreferences } from '../../../src/runtime/approvals/read-preferences';
import { approvalSignal, statusQuery } from '../../../src/contract/agent-run-api';
import { hostileCommands, type HostileEntry } from '../../core/approvals/shell/hostile-corpus';
import { waitFor, waitForApprovals, withAgentWorker, type RunHarness } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

const done = reply(toolCall('complete_task', { summary: 'done', status: 'success' }));
const GIT_CONFIG = '[core]\n\trepositoryformatversion = 0\n';

/** Gives `user` the entry's remembered choices the way a person's "always"/"never" is stored. */
async function remember(harness: RunHarness, user: string, entry: HostileEntry): Promise<void> {
  const preferences = entry.preferences ?? [];
  for (const { tool, preference, match } of preferences) {
    await harness.client.workflow.signalWithStart(PREFERENCES_WORKFLOW_TYPE, {
      workflowId: preferencesWorkflowId(user),
      taskQueue: harness.taskQueue,
      args: [],
      signal: changePreferenceSignal,
      signalArgs: [{ tool, preference, match, by: user }],
    });
  }
  await waitFor(async () => ((await readPreferences(harness.client, user)).length >= preferences.length ? true : undefined), 'the choices to be stored');
}

async function forget(client: Client, user: string): Promise<void> {
  await client.workflow.getHandle(preferencesWorkflowId(user)).terminate('test cleanup').catch(() => undefined);
}

describe('hostile commands through a real run', () => {
  const bed = useAgentTestbed({ env: { AGENT_SANDBOX: 'bwrap' } });
  const entries = hostileCommands.filter((entry) => entry.endToEnd);

  it.each(entries.map((entry) => [entry.id, entry] as const))('%s: parks or is rejected, and nothing runs', async (_id, entry) => {
    const task = uniqueId(entry.id);
    const user = uniqueId('person');
    bed.fake.script(task, [reply(toolCall(entry.tool, entry.input ?? { command: entry.command })), done]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const { workspace } = harness;
      await writeFile(path.join(workspace, 'canary'), 'still here\n');
      await mkdir(path.join(workspace, '.git'), { recursive: true });
      await writeFile(path.join(workspace, '.git', 'config'), GIT_CONFIG);
      try {
        await remember(harness, user, entry);
        const handle = await harness.start({ agent: 'general', task, user, toolApproval: entry.rules });
        if (entry.expected === 'ask') {
          const parked = await waitForApprovals(handle);
          expect(parked.pendingApprovals.map((p) => p.callId)).toEqual(['toolu_0_0']);
          await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'reject', approver: user });
        }
        await handle.result();
        const status = await handle.query(statusQuery);
        expect(status.decisions.map((d) => d.decision)).toEqual([entry.expected === 'ask' ? 'reject' : 'policy_reject']);
        expect(status.events.filter((e) => e.name === 'toolStarted')).toEqual([]);
      } finally {
        await forget(harness.client, user);
      }
      expect(await readFile(path.join(workspace, 'canary'), 'utf8')).toBe('still here\n');
      expect(existsSync(path.join(workspace, 'PWNED'))).toBe(false);
      expect(await readFile(path.join(workspace, '.git', 'config'), 'utf8')).toBe(GIT_CONFIG);
    });
  });
});
