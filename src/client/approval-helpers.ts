// What the approval verbs and the interactive prompt share: finding the call a person means, sending
// a decision so they learn the outcome, and showing a parked call in a terminal.
import {
  ApplicationFailure,
  ServiceError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  type WorkflowHandle,
} from '@temporalio/client';
import type { ApprovalDecision, DecisionOutcome, UserReply } from '../contract/approval-decision';
import { signDecision, signFollowUp, signReply } from './sign-messages';
import { type CliContext } from './cli-context';
import { approvalSignal, decideApprovalUpdate, sendMessageUpdate, statusQuery, submitReplyUpdate } from '../contract/agent-run-api';
import type { PendingQuestion } from '../contract/run-records';
import type { PendingApproval, RunStatus } from '../contract/run-status';
import { AmbiguousApprovalError, DecisionRefusedError, NoPendingApprovalError, NoWorkerAnsweredError, UsageError } from './errors';
import { terminalSafe } from './terminal-safe';
import { editedArgumentsFromCli } from './edited-arguments';

/** Queries and updates need a worker; without a deadline a call to a run whose worker is down would hang. */
export const WORKER_ANSWER_TIMEOUT_MS = 30_000;

export { defaultApprover } from './default-approver';

/**
 * True when the error, or one it wraps, is gRPC DEADLINE_EXCEEDED (code 4). The SDK's own
 * `isGrpcDeadlineError` misses the client-side variant, which carries no metadata.
 */
function isDeadlineExceeded(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === 4) return true;
  }
  return false;
}

/** Runs `call` with a gRPC deadline, turning an expired one into an error that says what to do. */
export async function withWorkerDeadline<T>(handle: WorkflowHandle, what: string, call: () => Promise<T>, timeoutMs = WORKER_ANSWER_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  try {
    return await handle.client.withDeadline(deadline, call);
  } catch (error) {
    // The client wraps the expired deadline (a query in a ServiceError, an update in its own type).
    // A loaded server may instead answer a query nobody polled for with another code just as the
    // deadline runs out ("Failed to query Workflow"); an answer that late is the same "no worker".
    const expired = error instanceof ServiceError && Date.now() >= deadline - 250;
    if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError || isDeadlineExceeded(error) || expired) {
      throw new NoWorkerAnsweredError(
        `No worker answered ${what} within ${Math.round(timeoutMs / 1000)}s: is a worker running for this run's task queue?`,
      );
    }
    throw error;
  }
}

export function queryStatus(handle: WorkflowHandle, timeoutMs?: number): Promise<RunStatus> {
  return withWorkerDeadline(handle, 'the status query', () => handle.query(statusQuery), timeoutMs);
}

/** One line per call: what a person needs to tell them apart (and the sub-agent run that waits, if not this one). */
export function listPendingCalls(pending: readonly PendingApproval[], runId?: string): string {
  return pending
    .map((p) => `  ${p.callId}  ${terminalSafe(p.tool)}  ${terminalSafe(oneLine(p.input))}${runId && p.workflowId && p.workflowId !== runId ? `  (sub-agent run ${p.workflowId})` : ''}`)
    .join('\n');
}

/** The callId a decision is for: the one named, or the only pending one. */
export function resolveCallId(status: Pick<RunStatus, 'workflowId' | 'pendingApprovals'>, callId?: string): string {
  if (callId) return callId;
  const pending = status.pendingApprovals;
  if (pending.length === 0) throw new NoPendingApprovalError(`Run ${status.workflowId} has no call waiting for approval.`);
  if (pending.length > 1) {
    throw new AmbiguousApprovalError(
      `Run ${status.workflowId} has ${pending.length} calls waiting for approval; name one:\n${listPendingCalls(pending, status.workflowId)}`,
    );
  }
  return pending[0]!.callId;
}

/**
 * A refused update as a DecisionRefusedError that keeps what the run said: its failure type, the
 * failure as the cause, and whether sending again can help (an update that met a run before its
 * handlers were ready was not judged at all).
 */
function refusalOf(error: WorkflowUpdateFailedError): DecisionRefusedError {
  const cause = error.cause;
  const failureType = cause instanceof ApplicationFailure ? (cause.type ?? undefined) : undefined;
  const message = cause?.message ?? error.message;
  return new DecisionRefusedError(message, { cause: cause ?? error, failureType, retryable: /No registered handler for update/.test(message) });
}

/** The run's answer to an update, or a DecisionRefusedError with the run's reason. */
export async function executeUpdate(handle: WorkflowHandle, what: string, call: () => Promise<DecisionOutcome>): Promise<DecisionOutcome> {
  let outcome: DecisionOutcome;
  try {
    outcome = await withWorkerDeadline(handle, what, call);
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError) throw refusalOf(error);
    // The server answers an update to a closed run with NOT_FOUND; say that it ended, not that it never existed.
    if (error instanceof WorkflowNotFoundError) {
      const ended = await handle.describe().then((d) => d.status.name, () => undefined);
      if (ended) throw new DecisionRefusedError(`Run ${handle.workflowId} has already ended (${ended}); it no longer takes decisions or replies.`);
    }
    if (error instanceof NoWorkerAnsweredError) {
      throw new NoWorkerAnsweredError(`${error.message} Nothing was confirmed; a signal (\`--signal\`) is stored by the server even while no worker runs.`);
    }
    throw error;
  }
  if (!outcome.applied) throw new DecisionRefusedError(outcome.message);
  return outcome;
}

/**
 * Sends a decision with the `decideApproval` update, so the caller learns whether it was applied.
 * Signed first when the approver has a key (sign-messages.ts). `pending` is the call as the run
 * listed it (a sub-agent's call names the run that waits for it, whose identity the signature
 * covers); the decision still goes to `handle`, which forwards it.
 */
export async function sendDecision(handle: WorkflowHandle, decision: ApprovalDecision, pending?: PendingApproval): Promise<DecisionOutcome> {
  const payload = await signDecision(handle, decision, async () => (pending ? [pending] : (await queryStatus(handle)).pendingApprovals));
  return executeUpdate(handle, 'the approval', () => handle.executeUpdate(decideApprovalUpdate, { args: [payload] }));
}

/** Sends a reply with the `submitReply` update (signed when `sender` has a key); refused when no question is waiting. */
export async function sendReply(handle: WorkflowHandle, reply: UserReply): Promise<DecisionOutcome> {
  const payload = await signReply(handle, reply, async () => (await queryStatus(handle)).pendingQuestions);
  return executeUpdate(handle, 'the reply', () => handle.executeUpdate(submitReplyUpdate, { args: [payload] }));
}

/** A follow-up message for a thread (`sendMessage`, signed when `sender` has a key); a run that is not a thread refuses it. */
export async function sendFollowUp(handle: WorkflowHandle, text: string, sender?: string): Promise<DecisionOutcome> {
  const payload = await signFollowUp(handle, { text, ...(sender ? { sender } : {}) });
  return executeUpdate(handle, 'the message', () => handle.executeUpdate(sendMessageUpdate, { args: [payload] }));
}

function oneLine(value: unknown, max = 120): string {
  const text = JSON.stringify(value ?? {});
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');

/** A parked call as a person sees it in a terminal: the tool, its arguments, and why it is asked. */
export function renderPendingApproval(p: PendingApproval): string {
  const lines = ['⚠️ Tool Approval Required', `Tool: ${terminalSafe(p.tool)}  (call ${p.callId})`, 'Arguments:', indent(terminalSafe(JSON.stringify(p.input ?? {}, null, 2)))];
  // A shell call as the worker's analyzer read it: each program it would run, including those
  // behind wrappers (`setsid rm`) and `find -exec`; the policy line says what it could not model.
  const command = (p.input as { command?: unknown } | undefined)?.command;
  if (p.commands && (p.commands.length > 1 || (p.commands.length === 1 && p.commands[0] !== command))) {
    lines.push('Programs it runs, as the analyzer read them:', ...p.commands.map((c) => indent(`- ${terminalSafe(c)}`)));
  }
  lines.push('Context:');
  if (p.context) lines.push(indent(`The agent said: ${terminalSafe(p.context)}`));
  lines.push(indent(`Policy: ${terminalSafe(p.reason)}`));
  return lines.join('\n');
}

export function renderQuestion(q: Pick<PendingQuestion, 'question' | 'context'>): string {
  const lines = ['❓ The agent needs more information', `Question: ${terminalSafe(q.question)}`];
  if (q.context) lines.push(`Context: ${terminalSafe(q.context)}`);
  return lines.join('\n');
}

/** A `--flag value` option, refusing a flag given without its value. */
export function stringFlag(ctx: CliContext, name: string): string | undefined {
  const value = ctx.args.flags[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} needs a value`);
  return value;
}

/**
 * `approve` and `reject`: decides one call, the one named or the only pending one. The update is the
 * default because the person learns at once whether it was applied; `--signal` sends the same payload
 * as a signal, which the server stores even while no worker runs (but nobody confirms it).
 */
export async function decideFromCli(ctx: CliContext, decision: ApprovalDecision['decision']): Promise<number> {
  const [workflowId, named] = ctx.args.positionals;
  if (!workflowId) throw new UsageError(`${decision.startsWith('approve') ? 'approve' : 'reject'} needs a workflow id`);
  const sweeping = decision === 'approve_always' || decision === 'reject_always';
  const toolWide = Boolean(ctx.args.flags['always-tool'] || ctx.args.flags['never-tool']);
  const prefix = stringFlag(ctx, 'prefix');
  if (prefix !== undefined && !sweeping) throw new UsageError('--prefix goes with --always or --never');
  if (prefix !== undefined && toolWide) throw new UsageError('give either --prefix or --always-tool/--never-tool, not both');
  const handle = (await ctx.client()).workflow.getHandle(workflowId);
  const status = named && ctx.args.flags.signal ? undefined : await queryStatus(handle).catch((error: unknown) => {
    if (!(error instanceof NoWorkerAnsweredError)) throw error;
    throw new NoWorkerAnsweredError(`${error.message} Without a worker the pending calls cannot be listed: name the callId and add --signal.`);
  });
  const callId = named ?? resolveCallId(status!);
  // A sub-agent's call is decided here and forwarded; its signature covers the run that waits for it.
  const pending = status?.pendingApprovals.find((p) => p.callId === callId);
  const payload: ApprovalDecision = { callId, decision, approver: stringFlag(ctx, 'approver') ?? ctx.clientSettings.approver };
  const reason = stringFlag(ctx, 'reason');
  if (reason) payload.reason = reason;
  if (toolWide) payload.scope = 'tool';
  if (prefix !== undefined) payload.prefix = prefix;
  const edited = editedArgumentsFromCli(ctx, () => {
    if (!pending) throw new UsageError(`--edit needs the call's arguments, which the run reports: ${callId} is not waiting (or no worker answered)`);
    return pending.input;
  });
  if (edited && !decision.startsWith('approve')) throw new UsageError('--arguments and --edit go with approve');
  if (edited) payload.arguments = edited;
  if (ctx.args.flags.signal) {
    // A signature covers the call's arguments, which only the run can report (a worker must answer).
    const signedPayload = await signDecision(handle, payload, async () => (pending ? [pending] : (await queryStatus(handle)).pendingApprovals));
    await handle.signal(approvalSignal, signedPayload);
    ctx.print({ workflowId, ...payload, via: 'signal', applied: null }, () => `Sent ${decision} for ${callId} to ${workflowId} as a signal (not confirmed; see \`agentctl pending\`).`);
    return 0;
  }
  const outcome = await sendDecision(handle, payload, pending);
  ctx.print({ workflowId, ...payload, via: 'update', ...outcome }, () => `${workflowId}: ${terminalSafe(outcome.message)}`);
  return 0;
}
