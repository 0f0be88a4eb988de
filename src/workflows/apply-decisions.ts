import { getExternalWorkflowHandle, isCancellation } from '@temporalio/workflow';
import type { ApprovalDecision } from '../contract/approval-decision';
import { approvalSignal } from '../contract/agent-run-api';
import type { ForwardOutcome } from '../runtime/activities/forward-decisions';
import { forwarding } from './activity-stubs';
import { planBatch, type ForwardedDecision } from '../core/machine/batch-rules';
import { pendingCalls } from '../core/machine/decision-rules';
import { editOutcome, routeDecision } from '../core/machine/message-routes';
import { checkEditedArguments } from './edit-checks';
import type { LetterContext, Settle } from './letter-context';
import { noteSignatures } from './signed-once';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A person's decision on one call (signal `approval`, update `decideApproval`), applied by the loop:
 * forwarded to the sub-agent's run that waits for the call, or checked (edited arguments go to the
 * worker first) and applied here. The state may move while the worker checks an edit, so the route is
 * asked again right before the decision is applied, in the same step as applying it: an update that
 * says "applied" was applied, and its audit line is on disk before it says so.
 */
export async function applyDecision(decision: ApprovalDecision, via: 'signal' | 'update', ctx: LetterContext, settle: Settle): Promise<void> {
  const { driver } = ctx;
  const route = routeDecision(driver.state, decision, ctx.signingEnv());
  if ('refusal' in route) return settle.refuse(route.refusal);
  if ('forwardTo' in route) {
    if (ctx.options.forwardByUpdate) return answerForwarded(decision, route.forwardTo, await forwardByUpdate(route.forwardTo, [decision]), settle);
    const sent = await forward([{ decision, workflowId: route.forwardTo, tool: '' }]);
    const problem = sent[0];
    if (problem) return settle.refuse(`${decision.decision} for ${decision.callId} could not be forwarded to ${route.forwardTo}, the sub-agent run that waits for it: ${problem}; nothing was applied`);
    if (!ctx.options.approvalChannelII) return settle.applied(`${decision.decision} for ${decision.callId} forwarded to ${route.forwardTo}, the sub-agent run that waits for it`);
    return settle.applied(`${decision.decision} for ${decision.callId} delivered to ${route.forwardTo}, the sub-agent run that waits for it; not applied yet: that run checks its signature and applies it (or records in its status why not)`);
  }
  // Edited arguments are checked by the worker first: a bad edit is refused (recorded, for a signal).
  const edits = await checkEditedArguments(driver.state, [decision]);
  if ('refusal' in edits) return settle.refuse(edits.refusal);
  const now = routeDecision(driver.state, decision, ctx.signingEnv());
  if (!('apply' in now)) return settle.refuse('refusal' in now ? now.refusal : `call ${decision.callId} now waits in a sub-agent's run; decide it again`);
  const before = driver.state.decisions.length;
  const analysis = edits.analyses[decision.callId];
  const { toolWideChoices, approvalChannel } = ctx.options;
  driver.dispatch({ type: 'decision', decision, via, verified: driver.state.approverKeys !== undefined, toolWide: toolWideChoices, legacy: !approvalChannel, ...(analysis ? { analysis } : {}) });
  noteSignatures(ctx, [decision]);
  const settled = driver.state.decisions.length - before;
  const others = settled > 1 ? ` (and ${settled - 1} other pending call(s) it covers)` : '';
  const applied = decision.arguments !== undefined ? editOutcome(driver.state, decision.callId) : `${decision.decision} applied to ${decision.callId}${others}`;
  settle.committed(applied);
  await driver.flushAudit();
  return settle.applied(applied);
}

/**
 * A batch of decisions (update `decideApprovals`), all or none: planned against the state, the edits
 * checked by the worker (a forwarded call's too, against its tool's schema), planned again right
 * before it is applied. Each sub-agent's run applies its own part and checks what only it can (its
 * signature); a forward that fails (the run ended meanwhile) is reported, since this run's part is applied.
 */
export async function applyBatch(decisions: ApprovalDecision[], ctx: LetterContext, settle: Settle): Promise<void> {
  const { driver } = ctx;
  const first = planBatch(driver.state, decisions.map((decision) => ({ decision })), ctx.signingEnv());
  if ('refusal' in first) return settle.refuse(first.refusal);
  const edits = await checkEditedArguments(driver.state, decisions, first.forwarded.map((f) => ({ callId: f.decision.callId, tool: f.tool })));
  if ('refusal' in edits) return settle.refuse(`${edits.refusal}; nothing was applied`);
  const items = decisions.map((decision) => ({ decision, analysis: edits.analyses[decision.callId] }));
  const plan = planBatch(driver.state, items, ctx.signingEnv());
  if ('refusal' in plan) return settle.refuse(plan.refusal);
  const before = driver.state.decisions.length;
  const { toolWideChoices, approvalChannel } = ctx.options;
  if (plan.local.length > 0) {
    driver.dispatch({ type: 'decisions', decisions: plan.local, via: 'update', verified: driver.state.approverKeys !== undefined, toolWide: toolWideChoices, legacy: !approvalChannel });
    noteSignatures(ctx, plan.local.map((item) => item.decision));
  }
  const calls = decisions.map((d) => d.callId).join(', ');
  const settled = `${driver.state.decisions.length - before} call(s) settled, ${pendingCalls(driver.state).length} still parked`;
  if (plan.local.length > 0) {
    const local = plan.local.map((item) => item.decision.callId).join(', ');
    const unsent = plan.forwarded.length > 0 ? `; the rest (${plan.forwarded.map((f) => f.decision.callId).join(', ')}) may not have reached the sub-agent runs that wait for them: decide them again` : '';
    settle.committed(`${plan.local.length} decision(s) applied here (${local}); ${settled}${unsent}`);
  }
  await driver.flushAudit();
  if (plan.forwarded.length === 0) return settle.applied(`${decisions.length} decision(s) applied (${calls}); ${settled}`);
  if (ctx.options.forwardByUpdate) return answerBatch(plan.local.map((item) => item.decision.callId), settled, plan.forwarded, settle);
  const problems = await forward(plan.forwarded);
  const lines = plan.forwarded.map((f, i) => `${f.decision.callId} → ${f.workflowId}${problems[i] ? ` (not delivered: ${problems[i]})` : ''}`);
  const here = plan.local.length > 0 ? `here ${settled}; ` : '';
  if (!ctx.options.approvalChannelII) return settle.applied(`${decisions.length} decision(s) applied (${calls}); ${here}forwarded to the sub-agent runs that wait for them: ${lines.join(', ')}`);
  // Truthful: only this run's part is applied; each run below checks and applies its own part.
  const local = plan.local.map((item) => item.decision.callId);
  const applied = local.length > 0 ? `${local.length} decision(s) applied here (${local.join(', ')}); ${settled}; ` : '';
  return settle.applied(`${applied}${plan.forwarded.length} delivered to the sub-agent runs that wait for them, not applied yet (each checks its signature and applies it, or records in its status why not): ${lines.join(', ')}`);
}

/** Signals each decision to the run that waits for it; per decision, why it could not be delivered (undefined: it was). */
async function forward(forwarded: readonly ForwardedDecision[]): Promise<(string | undefined)[]> {
  const sent = await Promise.allSettled(forwarded.map((f) => getExternalWorkflowHandle(f.workflowId).signal(approvalSignal, f.decision)));
  return sent.map((outcome) => {
    if (outcome.status === 'fulfilled') return undefined;
    if (isCancellation(outcome.reason)) throw outcome.reason;
    return `the run no longer takes signals (${errorText(outcome.reason)})`;
  });
}

/**
 * Sends decisions to the run that waits for them by an update, through an activity that returns that
 * run's answer (patch forwardByUpdate). The loop waits for it (at most the activity's three attempts
 * of 30 s): the run below never waits for this one, so the wait cannot close a circle. An activity
 * that failed every attempt is `unconfirmed`: the run below may or may not have applied the decisions.
 */
async function forwardByUpdate(workflowId: string, decisions: ApprovalDecision[]): Promise<ForwardOutcome | { unconfirmed: string }> {
  try {
    return await forwarding.forwardDecisions({ workflowId, decisions });
  } catch (error) {
    if (isCancellation(error)) throw error;
    return { unconfirmed: errorText(error) };
  }
}

/** The answer to one forwarded decision: the run below's own (issue 32, must-have 4). */
function answerForwarded(decision: ApprovalDecision, workflowId: string, outcome: ForwardOutcome | { unconfirmed: string }, settle: Settle): void {
  const what = `${decision.decision} for ${decision.callId}`;
  if ('applied' in outcome) return settle.applied(`${what} applied by ${workflowId}, the sub-agent run that waited for it: ${outcome.applied}`);
  if ('refused' in outcome) return settle.refuse(`${what} refused by ${workflowId}, the sub-agent run that waits for it: ${outcome.refused}`);
  if ('undelivered' in outcome) return settle.refuse(`${what} could not be forwarded to ${workflowId}, the sub-agent run that waited for it: ${outcome.undelivered}; nothing was applied`);
  return settle.refuse(`${what} was sent to ${workflowId}, the sub-agent run that waits for it, but its answer did not come (${outcome.unconfirmed}): it may or may not have applied it; look at its status before deciding again`);
}

/**
 * The answer to a batch with forwarded parts: each run below gets its part as one update (all or none
 * there) and answers for it. Refused as a whole only when nothing of it was applied anywhere.
 */
async function answerBatch(local: string[], settled: string, forwarded: readonly ForwardedDecision[], settle: Settle): Promise<void> {
  const runs = [...new Set(forwarded.map((f) => f.workflowId))];
  const outcomes = await Promise.all(runs.map((run) => forwardByUpdate(run, forwarded.filter((f) => f.workflowId === run).map((f) => f.decision))));
  const lines = runs.map((run, i) => {
    const calls = forwarded.filter((f) => f.workflowId === run).map((f) => f.decision.callId).join(', ');
    const outcome = outcomes[i]!;
    if ('applied' in outcome) return `${calls} → ${run}: applied (${outcome.applied})`;
    if ('refused' in outcome) return `${calls} → ${run}: refused (${outcome.refused})`;
    if ('undelivered' in outcome) return `${calls} → ${run}: not delivered (${outcome.undelivered})`;
    return `${calls} → ${run}: sent, no answer (${outcome.unconfirmed}); it may or may not have applied them`;
  });
  const here = local.length > 0 ? `${local.length} decision(s) applied here (${local.join(', ')}); ${settled}; ` : '';
  const anyApplied = local.length > 0 || outcomes.some((o) => 'applied' in o || 'unconfirmed' in o);
  if (!anyApplied) return settle.refuse(`nothing was applied: ${lines.join('; ')}`);
  return settle.applied(`${here}sub-agent runs: ${lines.join('; ')}`);
}
