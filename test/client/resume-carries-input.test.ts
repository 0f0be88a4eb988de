// Resuming a run continues it from its checkpoint with the earlier run's whole input, so the limits a
// run was started with (who may decide, network, typed result, thread) survive `agentctl resume`,
// whether the run stopped at its iteration cap or ended blocked.
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { resumeRun } from '../../src/client/resume-run';
import { checkpointQuery } from '../../src/workflows/definitions';
import { closeThreadUpdate, decideApprovalUpdate, statusQuery } from '../../src/contract/agent-run-api';
import { waitFor, waitForApprovals, waitForPhase, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { callId, firstUserText, stepScript, userText } from '../support/step-script';
import { uniqueId } from '../support/temporal';

const RESUMED = 'This run continues an earlier run';
/** The other settings that rebuilding the input by hand used to drop. */
const more = { subAgents: ['general'], modelRetryMaxSeconds: 120, idleTimeoutSeconds: 3_600, user: 'ana' };
const answerSchema = { type: 'object', required: ['answer'], additionalProperties: false, properties: { answer: { type: 'string' } } };
const kept = { approvers: ['ana'], network: true, outputSchema: answerSchema, followUps: true, ...more };

describe('resume carries the whole input', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it.each(['max_iterations', 'blocked'] as const)(
    'keeps approvers, network, outputSchema, followUps, subAgents and the model retry limit on a run resumed after it ended %s, and still refuses an approver not on the list',
    async (ending) => {
      const task = uniqueId('resume-input');
      // The first run lists files and stops at its cap of one iteration, or completes blocked (a thread,
      // then closed). The resumed one writes a file (parked for a person), then completes with a typed
      // output and waits for follow-ups.
      fake.script(
        task,
        stepScript((step, request) => {
          if (!userText(request).includes(RESUMED)) {
            return ending === 'max_iterations'
              ? reply(toolCall('list_files', { path: '.' }, callId(step)))
              : reply(toolCall('complete_task', { summary: 'no file yet', status: 'blocked', output: { answer: 'none' } }, callId(step)));
          }
          if (step !== 11) return reply(toolCall('write_file', { path: 'r.txt', content: 'x' }, callId(10)));
          return reply(toolCall('complete_task', { summary: 'written', status: 'success', output: { answer: 'r.txt' } }, callId(11)));
        }),
      );
      await withAgentWorker(bed.harness(), async ({ client, start, taskQueue }) => {
        const first = await start({ agent: 'general', task, maxIterations: 1, ...kept });
        if (ending === 'blocked') {
          await waitForPhase(first, 'idle');
          await first.executeUpdate(closeThreadUpdate, { args: [] });
          expect(await first.result()).toMatchObject({ status: 'completed', completion: { status: 'blocked' } });
        } else {
          expect(await first.result()).toMatchObject({ status: 'max_iterations', iterations: 1 });
        }

        // A run with approvers is resumed only at an approver's request (issue 32); without one the client refuses.
        await expect(resumeRun(client, first.workflowId, { taskQueue, maxIterations: 3 })).rejects.toThrow(/Only an approver of run .* \(ana\) may resume it/);
        const { plan, handle } = await resumeRun(client, first.workflowId, { taskQueue, maxIterations: 3, requestedBy: 'ana' });
        expect(plan.input).toMatchObject({ ...kept, maxIterations: 3, resumedFrom: first.workflowId, requestedBy: { name: 'ana', kind: 'resume' } });
        expect(plan.input.resume).toBeUndefined();

        const parked = await waitForApprovals(handle);
        expect(parked.approvers).toEqual(['ana']);
        const input = (await handle.query(checkpointQuery)).input;
        // Three more iterations than the one the earlier run used.
        expect(input).toMatchObject({ ...kept, maxIterations: 4 });

        // Someone not on the run's list is refused, as on the first run: the list did not widen to the agent's.
        const refused = await handle
          .executeUpdate(decideApprovalUpdate, { args: [{ callId: callId(10), decision: 'approve', approver: 'mallory' }] })
          .then(() => undefined, (e: unknown) => e);
        expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
        expect((refused as WorkflowUpdateFailedError).cause?.message).toBe('"mallory" may not decide calls of this run (approvers: ana); the call stays parked');
        expect((await handle.query(statusQuery)).phase).toBe('waiting_approval');

        await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: callId(10), decision: 'approve', approver: 'ana' }] });
        // followUps kept: the completed run waits for the next message instead of ending. A thread
        // resumed after it was closed keeps its earlier answer too.
        const answers = ending === 'blocked' ? 2 : 1;
        await waitForPhase(handle, 'idle');
        const status = await waitFor(async () => {
          const s = await handle.query(statusQuery);
          return s.completions.length === answers ? s : undefined;
        }, 'the answer');
        expect(status.phase).toBe('idle');
        await handle.executeUpdate(closeThreadUpdate, { args: [] });
        // outputSchema kept: the typed output is in the result.
        expect(await handle.result()).toMatchObject({ status: 'completed', output: { answer: 'r.txt' } });
      });
      // The resumed run saw the earlier conversation: the task, then the earlier run's call and its result.
      const resumed = fake.requestsFor(task).find((r) => userText(r).includes(RESUMED))!;
      expect(firstUserText(resumed)).toBe(task);
      expect(JSON.stringify(resumed.body.messages)).toContain(`"tool_use_id":"${callId(0)}"`);
      expect(fake.errors).toEqual([]);
    },
  );
});
