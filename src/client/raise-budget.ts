import type { WorkflowHandle } from '@temporalio/client';
import type { DecisionOutcome } from '../contract/approval-decision';
import { raiseBudgetUpdate } from '../contract/agent-run-api';
import type { RaiseBudget } from '../contract/budget';
import { budgetMessage, DEFAULT_SIGNATURE_LIFETIME_MS, signedText } from '../core/approvals/signatures/signed-message';
import { executeUpdate, queryStatus } from './approval-helpers';
import { hasApproverKey, signWithApproverKey } from './approver-keys';
import { describeRunIdentity } from './sign-messages';

/**
 * Raises a run's spend budget (update `raiseBudget`, issue 34): `maxUsd` / `maxTokens` are the new
 * limits. Signed by the approver when they have a key (`agentctl keys create`), over the run's
 * identity as the server describes it, as decisions are. A refusal becomes a DecisionRefusedError
 * with the run's reason (not an approver, a bad signature, not a raise).
 */
export async function raiseBudget(handle: WorkflowHandle, payload: RaiseBudget): Promise<DecisionOutcome> {
  const signed = await signRaise(handle, payload);
  return executeUpdate(handle, 'the budget raise', () => handle.executeUpdate(raiseBudgetUpdate, { args: [signed] }));
}

async function signRaise(handle: WorkflowHandle, raise: RaiseBudget): Promise<RaiseBudget> {
  const approver = raise.approver;
  if (raise.signature || !approver || !hasApproverKey(approver)) return raise;
  // Signed for the run that waits (a sub-agent's, when the raise is sent to its root), which checks it.
  const waiting = (await queryStatus(handle)).pendingBudget?.workflowId;
  const run = await describeRunIdentity(handle, waiting ?? handle.workflowId);
  const expiresAt = new Date(Date.now() + DEFAULT_SIGNATURE_LIFETIME_MS).toISOString();
  const message = budgetMessage(run, { approver, maxUsd: raise.maxUsd, maxTokens: raise.maxTokens, expiresAt });
  return { ...raise, expiresAt, signature: signWithApproverKey(approver, signedText(message)) };
}
