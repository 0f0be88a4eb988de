// Resuming a run starts the follow-up from the earlier run's whole input, so the limits a run was
// started with (who may decide, network, typed result, thread) survive `agentctl resume`.
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { resumeRun } from '../../src/client/resume-run';
import { checkpointQuery, closeThreadUpdate, decideApprovalUpdate, statusQuery } from '../../src/workflows/definitions';
import { waitFor, waitForApprovals, waitForPhase, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { callId, firstUserText, stepScript } from '../support/step-script';
import { uniqueId } from '../support/temporal';

const RESUMED = 'This run continues an earlier run';
/** The other settings that rebuilding the input by hand used to drop. */
const more = { subAgents: ['general'], modelRetryMaxSeconds: 120, idleTimeoutSeconds: 3_600, user: 'ana' };
const answerSchema = { type: 'object', required: ['answer'], additionalProperties: false, properties: { answer: { type: 'string' } } };

describe('resume carries the whole input', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('keeps approvers, network, outputSchema, followUps, subAgents and the model retry limit on the resumed run, and still refuses an approver not on the list', async () => {
    const task = uniqueId('resume-input');
    // The first run lists files and stops at its cap of one iteration; the resumed one writes a file
    // (parked for a person), then completes with a typed output and waits for follow-ups.
    fake.script(
      task,
      stepScript((step, request) => {
        if (!firstUserText(request).includes(RESUMED)) return reply(toolCall('list_files', { path: '.' }, callId(step)));
        if (step === 0) return reply(toolCall('write_file', { path: 'r.txt', content: 'x' }, callId(10)));
        return reply(toolCall('complete_task', { summary: 'written', status: 'success', output: { answer: 'r.txt' } }, callId(11)));
      }),
    );
    await withAgentWorker(bed.harness(), async ({ client, start, taskQueue }) => {
      const first = await start({ agent: 'general', task, maxIterations: 1, approvers: ['ana'], network: true, outputSchema: answerSchema, followUps: true, ...more });
      expect(await first.result()).toMatchObject({ status: 'max_iterations', iterations: 1 });

      const { plan, handle } = await resumeRun(client, first.workflowId, { taskQueue, maxIterations: 3 });
      expect(plan.input).toMatchObject({ approvers: ['ana'], network: true, outputSchema: answerSchema, followUps: true, maxIterations: 3, ...more });

      const parked = await waitForApprovals(handle);
      expect(parked.approvers).toEqual(['ana']);
      const input = (await handle.query(checkpointQuery)).input;
      expect(input).toMatchObject({ approvers: ['ana'], network: true, outputSchema: answerSchema, followUps: true, maxIterations: 3, ...more });

      // Someone not on the run's list is refused, as on the first run: the list did not widen to the agent's.
      const refused = await handle
        .executeUpdate(decideApprovalUpdate, { args: [{ callId: callId(10), decision: 'approve', approver: 'mallory' }] })
        .then(() => undefined, (e: unknown) => e);
      expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((refused as WorkflowUpdateFailedError).cause?.message).toBe('"mallory" may not decide calls of this run (approvers: ana); the call stays parked');
      expect((await handle.query(statusQuery)).phase).toBe('waiting_approval');

      await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: callId(10), decision: 'approve', approver: 'ana' }] });
      // followUps kept: the completed run waits for the next message instead of ending.
      await waitForPhase(handle, 'idle');
      const status = await waitFor(async () => {
        const s = await handle.query(statusQuery);
        return s.completions.length === 1 ? s : undefined;
      }, 'the first answer');
      expect(status.phase).toBe('idle');
      await handle.executeUpdate(closeThreadUpdate, { args: [] });
      // outputSchema kept: the typed output is in the result.
      expect(await handle.result()).toMatchObject({ status: 'completed', output: { answer: 'r.txt' } });
    });
  });
});
