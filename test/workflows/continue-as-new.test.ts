import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import type { CallModelInput } from '../../src/runtime/activities/call-model';
import { startRun } from '../../src/client/start-run';
import { approvalSignal, statusQuery } from '../../src/contract/agent-run-api';
import { waitFor, withAgentWorker } from '../support/agent-run-harness';
import { useFakeModel } from '../support/agent-testbed';
import { runChain } from '../support/run-chain';
import { uniqueId } from '../support/temporal';
import { callId, chainAgent, chainPlan, gatedStepTool, stepScript, stepTool } from '../support/step-script';

const TASK = 'Chain drill: twenty steps with one approval';
const GATED = 8;
const LAST = 20;

const plan = chainPlan({ gated: GATED, last: LAST, summary: 'twenty steps done' });

describe('continue-as-new', () => {
  const bed = useFakeModel();
  const fake = bed.fake;

  it('crosses several links, keeps an approval pending across one, goes on with deltas, and sums usage over the chain', async () => {
    fake.script(TASK, stepScript(plan));
    await withAgentWorker({ ...bed.harness(), agents: [chainAgent], tools: [stepTool, gatedStepTool] }, async ({ client, taskQueue }) => {
      const input = { agent: 'chain', task: TASK, historyBudget: { maxEvents: 60 } };
      const handle = await startRun(client, input, { taskQueue, workflowId: uniqueId('chain') });

      const parked = await waitFor(async () => {
        const status = await handle.query(statusQuery);
        return status.pendingApprovals.length > 0 ? status : undefined;
      }, 'the gated step to park');
      expect(parked.pendingApprovals[0]!.callId).toBe(callId(GATED));
      const parkedRunId = (await handle.describe()).runId;

      // Ignored signals (no such call) still grow the history; past the budget the run must hand
      // over to a new link while it is still waiting for the decision.
      let movedTo: string | undefined;
      for (let i = 0; i < 40 && !movedTo; i += 1) {
        await handle.signal(approvalSignal, { callId: `no-such-call-${i}`, decision: 'approve' });
        await new Promise((resolve) => setTimeout(resolve, 100));
        const runId = (await handle.describe()).runId;
        if (runId !== parkedRunId) movedTo = runId;
      }
      expect(movedTo).toBeDefined();

      const waiting = await waitFor(async () => {
        const status = await handle.query(statusQuery);
        return status.continueAsNewLinks > parked.continueAsNewLinks && status.phase === 'waiting_approval' ? status : undefined;
      }, 'the next link to wait for the same approval');
      expect(waiting.pendingApprovals.map((p) => p.callId)).toEqual([callId(GATED)]);
      expect(waiting.iteration).toBe(parked.iteration);

      await handle.signal(approvalSignal, { callId: callId(GATED), decision: 'approve', approver: 'tester' });
      const result = await handle.result();
      expect(result.status).toBe('completed');
      expect(result.completion?.status).toBe('success');
      expect(result.iterations).toBe(LAST + 2);

      // Same workflow id, one run per link, each closed by continue-as-new except the last.
      const chain = await runChain(client, handle.workflowId, handle.firstExecutionRunId);
      expect(chain.length).toBeGreaterThanOrEqual(3);
      expect(new Set(chain.map((l) => l.runId)).size).toBe(chain.length);
      expect(chain.map((l) => l.runId)).toContain(parkedRunId);
      expect(chain.map((l) => l.runId)).toContain(movedTo);
      expect(chain.at(-1)!.runId).toBe((await handle.describe()).runId);

      // The store key crosses the links: every later link's model calls carry only the new messages.
      const modelInputs = chain.map((link) =>
        (link.history.events ?? [])
          .map((e) => e.activityTaskScheduledEventAttributes)
          .filter((a) => a?.activityType?.name === 'callModel')
          .map((a) => defaultPayloadConverter.fromPayload(a!.input!.payloads![0]!) as CallModelInput),
      );
      expect(modelInputs[0]![0]!.conversation.baseCount).toBe(0);
      const later = modelInputs.slice(1).flat();
      expect(later.length).toBeGreaterThan(0);
      for (const input of later) {
        expect(input.conversation.baseCount).toBeGreaterThan(0);
        expect(input.conversation.append.length).toBeLessThanOrEqual(2);
      }

      const status = await handle.query(statusQuery);
      expect(status.continueAsNewLinks).toBe(chain.length - 1);
      expect(status.decisions.find((d) => d.callId === callId(GATED))).toMatchObject({ decision: 'approve', approver: 'tester', via: 'signal' });
      expect(status.ignored.length).toBeGreaterThan(0);

      // Every model call of every link counted once: the fake reports 100 in / 20 out per call.
      const calls = fake.requestsFor(TASK).length;
      expect(calls).toBe(LAST + 2);
      expect(result.usage.inputTokens).toBe(100 * calls);
      expect(result.usage.outputTokens).toBe(20 * calls);
    });
    expect(fake.errors).toEqual([]);
  });
});
