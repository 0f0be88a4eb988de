import type { RaiseBudget } from '../../contract/budget';
import { checkSignature } from '../approvals/signatures/decision-signature';
import { budgetMessage } from '../approvals/signatures/signed-message';
import { raiseProblem } from './budget';
import { effectiveApprovers, replayOf, type SigningEnv } from './decision-rules';
import type { RunState } from './run-state';

/**
 * Why a `raiseBudget` is refused, or undefined: the run ended, the sender is not one of the run's
 * approvers, its signature does not hold (when the worker has an approver registry, exactly as a
 * decision's), this run accepted the same signature before (`acceptedSignatures`, as signed
 * decisions are accepted once), or the raise would not raise anything. The update's validator asks this before
 * anything is written to history, and the loop asks it again right before it applies the raise.
 */
export function raiseBudgetRefusal(state: RunState, raise: RaiseBudget, env: SigningEnv): string | undefined {
  if (state.outcome) return 'The run has ended; its budget cannot change (resume it with agentctl resume)';
  const approvers = effectiveApprovers(state);
  const by = raise.approver;
  if (approvers && (!by || !approvers.includes(by))) {
    return `${by ? `"${by}"` : 'a raise without "approver"'} may not raise this run's budget (approvers: ${approvers.join(', ') || 'none'})`;
  }
  if (state.approverKeys !== undefined && raise.signature && !raise.expiresAt) return 'a signed raise needs expiresAt, the time its signature stops being good (agentctl budget sets it)';
  const run = { namespace: env.namespace, workflowId: state.workflowId, runId: env.firstRunId };
  const message = by && raise.expiresAt ? budgetMessage(run, { approver: by, maxUsd: raise.maxUsd, maxTokens: raise.maxTokens, expiresAt: raise.expiresAt }) : undefined;
  const check = checkSignature({ registry: state.approverKeys, signer: by, signature: raise.signature, message, now: env.now, kind: 'budget' });
  if (!check.ok) return check.reason;
  // Before the limits: a lifted copy is refused as what it is, whatever the budget stands at now.
  const replay = env.raisesOnce ? replayOf(state, raise, env) : undefined;
  if (replay) return replay;
  return raiseProblem(state.budget, raise);
}

/** Where a raise goes: applied to this run, forwarded to the sub-agent's run that waits for one, or refused. */
export type RaiseRoute = { apply: true } | { forwardTo: string } | { refusal: string };

/**
 * A raise applies to the run that waits for it. When this run is not parked by its own budget but a
 * run below it is (its report in `childWaiting`), the raise is forwarded there whole, as a nested
 * decision is: the approvers are checked here and again there, and the signature there, over that
 * run's identity (`agentctl budget` signs for the run that waits, `pendingBudget.workflowId`).
 */
export function routeRaise(state: RunState, raise: RaiseBudget, env: SigningEnv): RaiseRoute {
  const below = state.budget?.parkedAt ? undefined : Object.values(state.childWaiting).find((w) => w.budget)?.budget;
  if (!below || state.outcome) {
    const refusal = raiseBudgetRefusal(state, raise, env);
    return refusal ? { refusal } : { apply: true };
  }
  const approvers = effectiveApprovers(state);
  if (approvers && (!raise.approver || !approvers.includes(raise.approver))) {
    return { refusal: `${raise.approver ? `"${raise.approver}"` : 'a raise without "approver"'} may not raise this run's budget (approvers: ${approvers.join(', ') || 'none'})` };
  }
  return { forwardTo: below.workflowId };
}
