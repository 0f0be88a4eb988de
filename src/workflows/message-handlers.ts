import { setHandler } from '@temporalio/workflow';
import { ApprovalDecisionSchema, UserReplySchema, type ApprovalDecision, type DecisionOutcome } from '../approvals/approval-decision';
import { approvalSignal, decideApprovalUpdate, submitReplyUpdate, userReplySignal } from './definitions';
import { decisionRefusal } from './run-machine/decision-rules';
import type { RunDriver } from './run-driver';

const payloadText = (payload: unknown): string => {
  try {
    return JSON.stringify(payload) ?? String(payload);
  } catch {
    return String(payload);
  }
};

/** Handlers change the state; the main loop publishes the phase when it picks the change up (see RunDriver). */
const quiet = { publish: false };

const malformed = (issues: { path: PropertyKey[]; message: string }[]) => issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ');

/**
 * Installs the approval and reply handlers. Both paths refuse exactly the same things with the same
 * pure checks: a signal cannot answer, so what it cannot apply is recorded in `ignored` with the reason
 * (a throwing signal handler would fail the workflow task); an update's validator refuses it before
 * anything is written to history, and the caller gets the reason.
 */
export function installMessageHandlers(driver: RunDriver, options: { toolWideChoices: boolean }): void {
  // The decision's audit line is on disk before the update answers (and before any tool it allows starts).
  const decide = async (decision: ApprovalDecision, via: 'signal' | 'update'): Promise<DecisionOutcome> => {
    const verified = driver.state.approverKeys !== undefined;
    const before = driver.state.decisions.length;
    driver.dispatch({ type: 'decision', decision, via, verified, toolWide: options.toolWideChoices }, quiet);
    await driver.flushAudit();
    const settled = driver.state.decisions.length - before;
    const others = settled > 1 ? ` (and ${settled - 1} other pending call(s) it covers)` : '';
    return { applied: true, message: `${decision.decision} applied to ${decision.callId}${others}` };
  };

  setHandler(approvalSignal, async (raw: unknown) => {
    const parsed = ApprovalDecisionSchema.safeParse(raw);
    if (!parsed.success) {
      driver.dispatch({ type: 'ignored', kind: 'approval', reason: `malformed approval payload: ${malformed(parsed.error.issues)}`, payload: payloadText(raw) }, quiet);
      return;
    }
    const refusal = decisionRefusal(driver.state, parsed.data);
    if (refusal) driver.dispatch({ type: 'ignored', kind: 'approval', reason: refusal, payload: payloadText(raw) }, quiet);
    else await decide(parsed.data, 'signal');
  });

  setHandler(decideApprovalUpdate, (decision) => decide(ApprovalDecisionSchema.parse(decision), 'update'), {
    validator: (raw: unknown) => {
      const parsed = ApprovalDecisionSchema.safeParse(raw);
      if (!parsed.success) throw new Error(`Malformed approval: ${malformed(parsed.error.issues)}`);
      const refusal = decisionRefusal(driver.state, parsed.data);
      if (refusal) throw new Error(refusal);
    },
  });

  setHandler(userReplySignal, (raw: unknown) => {
    const parsed = UserReplySchema.safeParse(raw);
    if (!parsed.success) {
      driver.dispatch({ type: 'ignored', kind: 'userReply', reason: 'malformed reply payload: expected { "text": "..." }', payload: payloadText(raw) }, quiet);
      return;
    }
    driver.dispatch({ type: 'reply', text: parsed.data.text, via: 'signal' }, quiet);
  });

  setHandler(
    submitReplyUpdate,
    (reply) => {
      driver.dispatch({ type: 'reply', text: reply.text, via: 'update' }, quiet);
      return { applied: true, message: 'reply delivered to the agent' };
    },
    {
      validator: (raw: unknown) => {
        if (!UserReplySchema.safeParse(raw).success) throw new Error('Malformed reply: expected { "text": "..." }');
        if (!driver.state.pendingQuestion) throw new Error('No question is waiting for a reply');
      },
    },
  );
}
