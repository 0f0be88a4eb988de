// The preferences workflow lives as long as the namespace: when its history grows it continues as new,
// carrying only the current choices. Real server and worker; the growth comes from dropped signals.
import { describe, expect, it } from 'vitest';
import { changePreferenceSignal, preferencesQuery, preferencesWorkflowId, PREFERENCES_WORKFLOW_TYPE } from '../../src/core/approvals/preference-messages';
import { waitFor, withAgentWorker } from '../support/agent-run-harness';
import { useFakeModel } from '../support/agent-testbed';
import { runChain } from '../support/run-chain';
import { uniqueId } from '../support/temporal';

describe('the preferences workflow', () => {
  const bed = useFakeModel();

  it('continues as new when its history grows, keeping the current choices', async () => {
    const user = uniqueId('grow');
    const choice = { tool: 'write_file', preference: 'always' as const, match: { kind: 'argument' as const, name: 'path', value: 'notes.md', prefix: false }, by: user };
    await withAgentWorker(bed.harness(), async ({ client, taskQueue }) => {
      const store = await client.workflow.signalWithStart(PREFERENCES_WORKFLOW_TYPE, {
        workflowId: preferencesWorkflowId(user),
        taskQueue,
        args: [],
        signal: changePreferenceSignal,
        signalArgs: [choice],
      });
      try {
        await waitFor(async () => ((await store.query(preferencesQuery)).length === 1 ? true : undefined), 'the choice to be saved');
        const firstRunId = (await store.describe()).runId;
        // Malformed changes are dropped but still grow the history, past the 2,000-event mark.
        const bad = { tool: '', preference: 'sometimes' } as unknown as typeof choice;
        for (let sent = 0; sent < 2_100 && (await store.describe()).runId === firstRunId; sent += 150) {
          await Promise.all(Array.from({ length: 150 }, () => store.signal(changePreferenceSignal, bad)));
        }
        await waitFor(async () => ((await store.describe()).runId !== firstRunId ? true : undefined), 'the workflow to continue as new', 30_000);
        const chain = await runChain(client, store.workflowId, firstRunId);
        expect(chain.length).toBeGreaterThanOrEqual(2);
        expect(chain[0]!.history.events!.at(-1)!.workflowExecutionContinuedAsNewEventAttributes).toBeTruthy();
        expect(chain[0]!.events).toBeGreaterThan(2_000);
        // The new run carries the choice and nothing else.
        expect(await store.query(preferencesQuery)).toEqual([expect.objectContaining({ tool: 'write_file', preference: 'always', match: choice.match })]);
        expect(chain.at(-1)!.events).toBeLessThan(100);
      } finally {
        await store.terminate('test cleanup').catch(() => undefined);
      }
    });
  }, 120_000);
});
