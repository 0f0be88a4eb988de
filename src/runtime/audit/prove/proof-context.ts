import { canonicalJson } from '../../../core/approvals/canonical-json';
import { argumentsHash } from '../../../core/approvals/signatures/signed-message';
import { DigestedArgumentsSchema } from '../audit-arguments';
import type { LogLine } from './audit-lines';
import type { RunFacts } from './history-facts';
import type { ProblemKind, ProofProblem } from './proof-problems';

/** What every check of a proof reads, and where it reports. */
export interface ProofContext {
  workflowId: string;
  /** The namespace signatures name (the history does not say it). */
  namespace: string;
  facts: RunFacts;
  /** This run's lines: `run` is the workflow id and `runId` a link of its chain. */
  lines: LogLine[];
  /** The approver keys signatures are checked with; undefined when the run required none. */
  keys?: Readonly<Record<string, string>>;
  problems: ProofProblem[];
}

export const report = (ctx: ProofContext, callId: string, kind: ProblemKind, detail: string): void => {
  ctx.problems.push({ callId, kind, detail });
};

/** Decisions that let a call run; any other decision refuses it. */
export const ALLOWING = new Set(['approve', 'approve_always', 'policy_allow', 'handler_allow']);

/** Where a line stands, for messages: `w.log:4`. */
export const lineText = (line: LogLine): string => `${line.file.split(/[\\/]/).pop()}:${line.seq}`;

/**
 * Whether arguments as the audit log keeps them (whole, or `{ digest, size, preview }` when large)
 * are `actual`: equal canonical JSON, or the digest of `actual`'s canonical JSON.
 */
export function sameArguments(logged: unknown, actual: unknown): boolean {
  const digested = DigestedArgumentsSchema.safeParse(logged);
  if (digested.success) return digested.data.digest === `sha256:${argumentsHash(actual)}`;
  return canonicalJson(logged ?? null) === canonicalJson(actual ?? null);
}

/** Arguments for a message, cut short: a proof's table must stay readable. */
export function argumentsText(value: unknown): string {
  const digested = DigestedArgumentsSchema.safeParse(value);
  const text = digested.success ? `${digested.data.preview} (${digested.data.digest.slice(0, 19)}…)` : canonicalJson(value ?? null);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** The run's approvers: the run's list narrowed by the agent's, as the workflow computes them. */
export function allowedApprovers(facts: RunFacts): string[] | undefined {
  const { runApprovers: run, agentApprovers: agent } = facts;
  if (agent && run) return run.filter((name) => agent.includes(name));
  return run ?? agent;
}
