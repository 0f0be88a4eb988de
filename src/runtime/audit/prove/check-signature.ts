// Whether a person's decision on a call carries a valid signature by an allowed approver over exactly
// the arguments the call ran with. The signed message is rebuilt from the history (the run, what the
// model asked for, the decision the person sent), never from the log, and checked with the keys the
// auditor trusts (`--keys`), or else with the registry the worker recorded in the history.
import { checkSignature } from '../../../core/approvals/signatures/decision-signature';
import { decisionMessage, type DecisionMessage } from '../../../core/approvals/signatures/signed-message';
import { DigestedArgumentsSchema } from '../audit-arguments';
import type { LogLine } from './audit-lines';
import type { DecisionMessage as SentDecision, ToolRun } from './history-facts';
import { allowedApprovers, argumentsText, lineText, report, sameArguments, type ProofContext } from './proof-context';

const optional = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The message the person signed, as this run rebuilds it; the model's arguments as the history has them, or as the log digested them. */
function signedMessage(ctx: ProofContext, line: LogLine, sent: SentDecision): DecisionMessage {
  const { callId } = line.record;
  const p = sent.payload;
  const fields = {
    callId,
    decision: String(p.decision),
    approver: String(p.approver),
    scope: optional(p.scope),
    prefix: optional(p.prefix),
    reason: optional(p.reason),
    expiresAt: String(p.expiresAt),
    ...(p.arguments === undefined ? {} : { arguments: p.arguments }),
  };
  const run = { namespace: ctx.namespace, workflowId: ctx.workflowId, runId: ctx.facts.links[0]!.firstRunId };
  const asked = ctx.facts.modelCalls.get(callId);
  if (asked) return decisionMessage(run, asked.input, fields);
  const logged = DigestedArgumentsSchema.safeParse(line.record.arguments);
  const message = decisionMessage(run, line.record.arguments, fields);
  return logged.success ? { ...message, argumentsHash: logged.data.digest.slice('sha256:'.length) } : message;
}

type SignatureProblem = { kind: 'unsigned' | 'bad_signature'; detail: string };

/** Why `sent` does not prove the decision of `line`, or undefined when it does. */
function signatureProblem(ctx: ProofContext, line: LogLine, sent: SentDecision): SignatureProblem | undefined {
  const where = `the decision in the history (${sent.via}, event ${sent.at.event})`;
  if (typeof sent.payload.signature !== 'string') return { kind: 'unsigned', detail: `${where} carries no signature` };
  if (typeof sent.payload.expiresAt !== 'string' || typeof sent.payload.approver !== 'string') {
    return { kind: 'bad_signature', detail: `${where} names no approver or expiry, so its signature is not over the v2 message` };
  }
  const check = checkSignature({
    registry: ctx.keys,
    signer: sent.payload.approver,
    signature: optional(sent.payload.signature),
    message: signedMessage(ctx, line, sent),
    // The workflow checked it when it applied the decision: the line's time.
    now: Date.parse(line.record.at),
  });
  return check.ok ? undefined : { kind: 'bad_signature', detail: check.reason };
}

/**
 * The signature status of a person's decision line, reporting what is wrong. A call settled by a
 * person's "always" on another call of the same turn has no message of its own: the covering
 * decision's signature is checked instead.
 */
export function proveSignature(ctx: ProofContext, line: LogLine, run: ToolRun | undefined): string {
  const { callId, decision, approver } = line.record;
  const messages = ctx.facts.messages.filter((m) => m.payload.callId === callId && !m.failed);
  if (messages.length === 0) {
    const covering = ctx.lines.find(
      (l) => l !== line && l.record.kind === 'decision' && l.record.at === line.record.at && l.record.approver === approver && l.record.decision === decision && /_always$/.test(decision ?? ''),
    );
    const coveringSent = covering && ctx.facts.messages.find((m) => m.payload.callId === covering.record.callId && !m.failed);
    if (!covering || !coveringSent) {
      report(ctx, callId, 'unsigned', `${lineText(line)} records ${decision} by ${approver ?? 'no one'}, but the history holds no decision on ${callId} that a person sent`);
      return 'missing';
    }
    const problem = signatureProblem(ctx, covering, coveringSent);
    if (problem) report(ctx, callId, problem.kind, `settled by the "always" on ${covering.record.callId}, whose signature does not hold: ${problem.detail}`);
    return problem ? 'bad' : `by ${covering.record.callId}`;
  }
  const same = messages.filter((m) => m.payload.decision === decision && m.payload.approver === approver);
  if (same.length === 0) {
    const sentText = messages.map((m) => `${String(m.payload.decision)} by ${String(m.payload.approver ?? 'no one')}`).join(', ');
    report(ctx, callId, 'approval_mismatch', `${lineText(line)} records ${decision} by ${approver ?? 'no one'}; the history's decisions on ${callId} are ${sentText}`);
    return 'bad';
  }
  let problem: SignatureProblem | undefined;
  const good = same.find((sent) => {
    problem = signatureProblem(ctx, line, sent);
    return problem === undefined;
  });
  if (!good) {
    report(ctx, callId, problem!.kind, problem!.detail);
    return problem!.kind === 'unsigned' ? 'missing' : 'bad';
  }
  const approvers = allowedApprovers(ctx.facts);
  if (approvers && !approvers.includes(String(good.payload.approver))) {
    report(ctx, callId, 'approver_not_allowed', `signed by ${String(good.payload.approver)}, who is not among the run's approvers (${approvers.join(', ') || 'none'})`);
    return 'bad';
  }
  // What the signature lets run: the edited arguments when the person edited the call, else what the model asked for.
  const covered = good.payload.arguments ?? ctx.facts.modelCalls.get(callId)?.input ?? line.record.arguments;
  if (run?.how === 'activity' && !sameArguments(covered, run.input)) {
    report(ctx, callId, 'arguments_mismatch', `the signed decision lets ${argumentsText(covered)} run, but the activity (event ${run.at.event}) received ${argumentsText(run.input)}`);
    return 'bad';
  }
  return 'valid';
}
