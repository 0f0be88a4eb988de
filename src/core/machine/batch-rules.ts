import { produce } from 'immer';
import type { ApprovalDecision } from '../../contract/approval-decision';
import type { ShellAnalysis } from '../../contract/shell-analysis';
import { decisionRefusal, forwardRefusal, pendingCalls, type SigningEnv } from './decision-rules';
import { waitingBelow } from './message-routes';
import { onDecision } from './on-decision';
import type { RunState } from './run-state';
import { transitionContext } from './transition-context';

export interface BatchItem {
  decision: ApprovalDecision;
  analysis?: ShellAnalysis;
}

/** A decision of a batch on a call that a sub-agent's run (a child, or deeper) waits for: it is signalled there. */
export interface ForwardedDecision {
  decision: ApprovalDecision;
  /** The run that waits for the call, as the child reported it in `childWaiting`. */
  workflowId: string;
  tool: string;
}

/** How a batch is carried out: decisions this run applies itself, and those it forwards; or why not at all. */
export type BatchPlan = { local: BatchItem[]; forwarded: ForwardedDecision[] } | { refusal: string };

/**
 * Splits a batch between this run and its sub-agents' runs, or says why it cannot be applied as a
 * whole, naming the decision and the reason. A call this run has parked is decided here; a call only
 * a sub-agent's run waits for (listed in `childWaiting`, the whole tree below this run) is forwarded
 * to that run, after the checks this run can make for it: the call is waiting, and the approver is
 * one that run accepts. A call neither here nor below is refused, which refuses the whole batch.
 * The local decisions are tried in order on a copy of the state with the same pure checks a single
 * decision gets, so a decision made moot by an earlier one in the batch (an "always" that already
 * settled the call) is caught too. Nothing of the real state changes here.
 */
export function planBatch(state: RunState, items: readonly BatchItem[], env: SigningEnv & { runId: string; toolWide: boolean }): BatchPlan {
  let refusal: string | undefined;
  const local: BatchItem[] = [];
  const forwarded: ForwardedDecision[] = [];
  const refuse = (index: number, decision: ApprovalDecision, problem: string) =>
    `decision ${index + 1} of ${items.length} (${decision.decision} ${decision.callId}) is refused: ${problem}; nothing was applied`;
  const below = waitingBelow(state);
  const ctx = transitionContext({ now: env.now, runId: env.runId, namespace: env.namespace, firstRunId: env.firstRunId }, []);
  produce(state, (draft) => {
    for (const [index, item] of items.entries()) {
      const { decision, analysis } = item;
      // A decision naming its run goes there; otherwise this run's own parked call wins over a
      // sub-agent's call with the same id, as for a single decision.
      const target = env.channelII ? decision.workflowId : undefined;
      const own = target === undefined ? pendingCalls(draft).some((c) => c.id === decision.callId) : target === state.workflowId;
      const there = own ? undefined : below.find((a) => a.callId === decision.callId && (target === undefined || a.workflowId === target));
      if (!own && !there && target !== undefined) {
        refusal = refuse(index, decision, `no call ${decision.callId} of ${target} waits for a decision in this run's tree`);
        return;
      }
      if (there) {
        const problem = forwardRefusal(there, decision, { state, env });
        if (problem) {
          refusal = refuse(index, decision, problem);
          return;
        }
        forwarded.push({ decision, workflowId: there.workflowId, tool: there.tool });
        continue;
      }
      const problem = decisionRefusal(draft, decision, env);
      if (problem) {
        refusal = refuse(index, decision, problem);
        return;
      }
      onDecision(draft, decision, 'update', false, ctx, env.toolWide, env.legacy === true, analysis);
      local.push(item);
    }
  });
  return refusal !== undefined ? { refusal } : { local, forwarded };
}

/** Why a batch cannot be applied as a whole, or undefined when it can (see planBatch). */
export function batchRefusal(state: RunState, items: readonly BatchItem[], env: SigningEnv & { runId: string; toolWide: boolean }): string | undefined {
  const plan = planBatch(state, items, env);
  return 'refusal' in plan ? plan.refusal : undefined;
}
