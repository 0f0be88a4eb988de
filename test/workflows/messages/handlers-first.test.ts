// Issue 31, finding 1: every handler is installed before the run's first `await`. A message sent the
// moment a run starts (with the start itself, or while the worker resolves the agent) is taken, not
// refused with "No registered handler", and `status` answers at once with the phase `starting`.
import { WithStartWorkflowOperation, WorkflowUpdateFailedError, WorkflowUpdateStage, ApplicationFailure } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { AGENT_RUN_WORKFLOW_TYPE, decideApprovalUpdate, sendMessageUpdate, statusQuery, type AgentRunWorkflow } from '../../../src/contract/agent-run-api';
import { FailureType } from '../../../src/contract/errors';
import { lifecycleSinks } from '../../../src/runtime/lifecycle/lifecycle-sink';
import { waitFor, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { temporalAddress, uniqueId } from '../../support/temporal';
import { complete } from '../approval-test-kit';

describe('handlers are there before the run starts', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('an update sent with the start itself is answered (update-with-start)', async () => {
    const task = uniqueId('with-start');
    fake.script(task, [complete('first'), complete('second')]);
    await withAgentWorker(bed.harness(), async ({ client, taskQueue }) => {
      const workflowId = uniqueId('run');
      const startOp = new WithStartWorkflowOperation<AgentRunWorkflow>(AGENT_RUN_WORKFLOW_TYPE, {
        workflowId,
        taskQueue,
        args: [{ agent: 'general', task, followUps: true }],
        workflowIdConflictPolicy: 'FAIL',
      });
      const outcome = await client.workflow.executeUpdateWithStart(sendMessageUpdate, { args: [{ text: 'and then this' }], startWorkflowOperation: startOp });
      expect(outcome.applied).toBe(true);
      const handle = await startOp.workflowHandle();
      await waitFor(async () => ((await handle.query(statusQuery)).completions.length === 2 ? true : undefined), 'both completions');
      await handle.terminate('test over');
    });
    expect(JSON.stringify(fake.requestsFor(task)[1]?.body.messages.at(-1))).toContain('and then this');
  });

  it('answers status with the phase `starting` and takes updates while the worker has not resolved the agent yet', async () => {
    const task = uniqueId('starting');
    fake.script(task, [complete('first'), complete('second')]);
    const taskQueue = uniqueId('q');
    // A worker that runs workflow code but no activities: the run cannot get past its start.
    const connection = await NativeConnection.connect({ address: temporalAddress() });
    const workflowsOnly = await Worker.create({ connection, taskQueue, workflowBundle: bed.harness().workflowBundle, sinks: lifecycleSinks([]) });
    await withAgentWorker({ ...bed.harness(), taskQueue: uniqueId('unused') }, async ({ client }) => {
      const handle = await client.workflow.start<AgentRunWorkflow>(AGENT_RUN_WORKFLOW_TYPE, { taskQueue, workflowId: uniqueId('run'), args: [{ agent: 'general', task, followUps: true }] });
      const early = await workflowsOnly.runUntil(async () => {
        const status = await waitFor(() => handle.query(statusQuery), 'a status while starting');
        expect(status).toMatchObject({ phase: 'starting', workflowId: handle.workflowId, task, startedAs: 'general', pendingApprovals: [] });
        const message = await handle.startUpdate(sendMessageUpdate, { args: [{ text: 'sent while starting' }], waitForStage: WorkflowUpdateStage.ACCEPTED });
        const decision = await handle.startUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_9_9', decision: 'approve' }], waitForStage: WorkflowUpdateStage.ACCEPTED });
        return { message, decision };
      });
      await connection.close();
      // A full worker takes the run over: it starts, and answers both updates.
      await withAgentWorker({ ...bed.harness(), taskQueue }, async () => {
        const refused = await early.decision.result().then(() => undefined, (e: unknown) => e);
        expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
        const cause = (refused as WorkflowUpdateFailedError).cause;
        expect(cause).toBeInstanceOf(ApplicationFailure);
        expect((cause as ApplicationFailure).type).toBe(FailureType.DecisionRefused);
        expect(cause?.message).toBe('no pending approval with callId toolu_9_9; decision ignored');
        expect(await early.message.result()).toMatchObject({ applied: true });
        await waitFor(async () => ((await handle.query(statusQuery)).completions.length === 2 ? true : undefined), 'both completions');
        await handle.terminate('test over');
      });
    });
    expect(JSON.stringify(fake.requestsFor(task)[1]?.body.messages.at(-1))).toContain('sent while starting');
  });
});
