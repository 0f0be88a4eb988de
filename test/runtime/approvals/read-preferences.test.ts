import { describe, expect, it } from 'vitest';
import { changePreferenceSignal, PREFERENCES_WORKFLOW_TYPE, preferencesWorkflowId } from '../../../src/core/approvals/preference-messages';
import { readPreferences } from '../../../src/runtime/approvals/read-preferences';
import { statusQuery } from '../../../src/contract/agent-run-api';
import { waitFor, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

describe('readPreferences', () => {
  const bed = useAgentTestbed();

  it('reads a person\'s choices while no worker polls their preferences workflow, and a run applies them', async () => {
    const user = uniqueId('memo-user');
    // The preferences workflow lives on the first worker's task queue; that worker then goes away.
    await withAgentWorker(bed.harness(), async ({ client, taskQueue }) => {
      await client.workflow.signalWithStart(PREFERENCES_WORKFLOW_TYPE, {
        workflowId: preferencesWorkflowId(user),
        taskQueue,
        args: [],
        signal: changePreferenceSignal,
        signalArgs: [{ tool: 'write_file', preference: 'always', by: user }],
      });
      await waitFor(async () => ((await readPreferences(client, user)).length > 0 ? true : undefined), 'the memo to show the choice');
    });

    const task = uniqueId('memo-run');
    bed.fake.script(task, [
      reply(toolCall('write_file', { path: 'a.txt', content: 'hi' })),
      reply(toolCall('complete_task', { summary: 'done', status: 'success' })),
    ]);
    // A second worker on another queue: a query to the preferences workflow would wait for a worker
    // that never comes; the memo is answered by the server.
    await withAgentWorker(bed.harness(), async ({ client, start }) => {
      expect(await readPreferences(client, user)).toEqual([expect.objectContaining({ tool: 'write_file', preference: 'always' })]);
      const handle = await start({ agent: 'general', task, user });
      expect((await handle.result()).status).toBe('completed');
      const status = await handle.query(statusQuery);
      // No person decided: the remembered choice did, and its policy line says so (patch rule-decision-lines).
      expect(status.decisions).toEqual([expect.objectContaining({ decision: 'policy_allow', via: 'policy', reason: expect.stringMatching(/^decided by a remembered choice: /) })]);
      expect(status.recentToolCalls.find((c) => c.tool === 'write_file')?.outcome).toBe('success');
      await client.workflow.getHandle(preferencesWorkflowId(user)).terminate('test cleanup');
    });
  });

  it('returns no choices for someone who never made one', async () => {
    await withAgentWorker(bed.harness(), async ({ client }) => {
      expect(await readPreferences(client, uniqueId('nobody'))).toEqual([]);
    });
  });
});
