// One line of the audit log, version 2, and how lines are chained. Version 1 was the unchained line
// of the lifecycle handler (src/runtime/lifecycle/audit-log.ts); it has no `v` field, so it never parses here.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { describeZodError } from '../../contract/describe-zod-error';
import { AuditArgumentsSchema } from './audit-arguments';
import { AuditDecisionSchema } from '../../contract/audit-decision';

export { AUDIT_DECISIONS, AuditDecisionSchema, type AuditDecision } from '../../contract/audit-decision';

export const AUDIT_RECORD_VERSION = 2;

/** The `prev` of the first line: there is no line before it. */
export const GENESIS_HASH = '0'.repeat(64);

/** The hex SHA-256 of a line's exact text, without its newline: what the next line's `prev` holds. */
export function hashLine(line: string | Uint8Array): string {
  return createHash('sha256').update(line).digest('hex');
}


/** A spend budget's limits as a `budget` line records them (issue 34). */
const AuditBudgetSchema = z.object({ maxUsd: z.number().optional(), maxTokens: z.number().optional() });

/**
 * Strict where the chain depends on it (v, seq, at, prev, kind) and in the decision, permissive for
 * the rest, so a writer that adds a field does not make older verifiers call the log broken.
 */
export const AuditRecordSchema = z.object({
  v: z.literal(AUDIT_RECORD_VERSION),
  /** The line's 1-based number in its file. */
  seq: z.number().int().positive(),
  at: z.iso.datetime({ offset: true }),
  prev: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits'),
  /**
   * `decision`: a call was allowed or refused; `call`: an allowed call ran (or its outcome is unknown);
   * `mode`: the run's permission mode was switched (`tool` is "setMode", `mode` and `previousMode` say how);
   * `request`: a person forked or resumed a run with approvers (`tool` is "fork" or "resume", `approver` and
   * `requestedBy` the requester, `verified` whether their signature was checked, `reason` from which run);
   * `budget`: an approver raised the run's spend budget (`tool` is "raiseBudget", `previousBudget` and
   * `budget` the limits before and after, `verified` whether the raise's signature was checked).
   */
  kind: z.enum(['decision', 'call', 'mode', 'request', 'budget']),
  /** The run's workflow id. */
  run: z.string(),
  runId: z.string().optional(),
  agent: z.string(),
  iteration: z.number(),
  tool: z.string(),
  callId: z.string(),
  arguments: AuditArgumentsSchema.optional(),
  decision: AuditDecisionSchema.optional(),
  approver: z.string().optional(),
  /** True when the approver's signature was checked against the registry of approvers. */
  verified: z.boolean().optional(),
  /** How the decision arrived: signal, update, policy, timeout, handler, cli. */
  via: z.string().optional(),
  reason: z.string().optional(),
  /** Who sent the follow-up message the call came from (a thread's later turns); absent for the task itself. */
  requestedBy: z.string().optional(),
  outcome: z.enum(['success', 'error', 'not_run', 'unknown']).optional(),
  /** A person approved the call with other arguments: `arguments` are what the model asked for, these what ran. */
  editedArguments: AuditArgumentsSchema.optional(),
  mode: z.string().optional(),
  previousMode: z.string().optional(),
  /** A `budget` line: the run's limits after the raise, and before it. */
  budget: AuditBudgetSchema.optional(),
  previousBudget: AuditBudgetSchema.optional(),
  durationMs: z.number().optional(),
  idempotencyKey: z.string().optional(),
});
export type AuditRecord = z.infer<typeof AuditRecordSchema>;

/**
 * What a caller hands to the chain: a record without the fields the chain fills in. `arguments` may
 * be the raw tool input; the chain digests it when large, so no caller can forget to.
 */
export type AuditEntry = Omit<AuditRecord, 'v' | 'seq' | 'prev' | 'arguments' | 'editedArguments'> & { arguments?: unknown; editedArguments?: unknown };

/** A record's line as the chain writes it (without its newline): its hash is what the next line's `prev` holds. */
export function lineOf(record: AuditRecord): string {
  return JSON.stringify(record);
}

/**
 * What the `recordAudit` local activity returns, so what its marker in the workflow history keeps: the
 * hash of each line it wrote. `agentctl audit prove` finds by it which workflow task wrote a decision
 * line, and so whether the line was on disk before the tool it allowed was scheduled. Markers of
 * workflows run by earlier releases hold no receipt (the activity returned nothing).
 */
export const AuditReceiptSchema = z.object({ lines: z.array(z.string().regex(/^[0-9a-f]{64}$/)) });
export type AuditReceipt = z.infer<typeof AuditReceiptSchema>;

/** Parses one line's text; the problem, when there is one, is worded to follow "line N: " in a report. */
export function parseAuditLine(text: string): { ok: true; record: AuditRecord } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  if (value !== null && typeof value === 'object' && !('v' in value)) {
    return { ok: false, problem: 'not a version 2 audit record (no "v"; a line of the unchained version 1 log?)' };
  }
  const parsed = AuditRecordSchema.safeParse(value);
  if (!parsed.success) return { ok: false, problem: `not a valid audit record: ${describeZodError(parsed.error).replace(/\n/g, '; ')}` };
  return { ok: true, record: parsed.data };
}
