// `agentctl result` waits across continue-as-new: started while the first links run, it prints the
// outcome of the last one. A real `agentctl` process, the shared dev server and the fake model.
import { describe, expect, it } from 'vitest';
import { startRun } from '../../src/client/start-run';
import { approvalSignal } from '../../src/contract/agent-run-api';
import { waitFor, waitForApprovals, withAgentWorker } from '../support/agent-run-harness';
import { useFakeModel } from '../support/agent-testbed';
import { runChain } from '../support/run-chain';
import { temporalAddress, uniqueId } from '../support/temporal';
import { callId, chainAgent, chainPlan, gatedStepTool, stepScript, stepTool } from '../support/step-script';
import { startAgentctl } from './agentctl-process';

const GATED = 2;
const LAST = 20;

const plan = chainPlan({ gated: GATED, last: LAST, summary: 'all steps done' });

describe('agentctl result', () => {
  const bed = useFakeModel();

  it('follows continue-as-new and prints the outcome of the last link', async () => {
    const task = uniqueId('result-chain');
    bed.fake.script(task, stepScript(plan));
    await withAgentWorker({ ...bed.harness(), agents: [chainAgent], tools: [stepTool, gatedStepTool] }, async ({ client, taskQueue }) => {
      const handle = await startRun(client, { agent: 'chain', task, historyBudget: { maxEvents: 60 } }, { taskQueue, workflowId: uniqueId('chain') });
      await waitForApprovals(handle, 1);
      const parkedRunId = (await handle.describe()).runId;
      const result = startAgentctl(['result', handle.workflowId, '--json'], { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue });

      // Ignored signals grow the history until the parked run hands over to a new link; after the
      // approval, the remaining steps cross further links before the run completes.
      let i = 0;
      await waitFor(async () => {
        await handle.signal(approvalSignal, { callId: `no-such-call-${(i += 1)}`, decision: 'approve' });
        return (await handle.describe()).runId !== parkedRunId ? true : undefined;
      }, 'the parked run to continue as new', 30_000);
      await handle.signal(approvalSignal, { callId: callId(GATED), decision: 'approve', approver: 'tester' });

      const { code, stdout, stderr } = await result.done;
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ kind: 'completed', workflowId: handle.workflowId, result: { status: 'completed', iterations: LAST + 2, completion: { summary: 'all steps done' } } });
      const chain = await runChain(client, handle.workflowId, handle.firstExecutionRunId);
      const parkedAt = chain.findIndex((l) => l.runId === parkedRunId);
      expect(parkedAt).toBeGreaterThanOrEqual(0);
      expect(chain.length - parkedAt).toBeGreaterThanOrEqual(3);
    });
  });
});
