// `agentctl audit prove`: an offline proof, from a run's exported histories and the audit log, that
// every call that could have a side effect had its decision, written before the call could start,
// signed where the run required it, and that the log holds no decision the history does not bear out.
import type { DataConverter } from '@temporalio/common';
import { loadDataConverter } from '@temporalio/common/lib/internal-non-workflow';
import { orderChain, type LinkEnd } from './history-chain';
import { readRunFacts } from './history-facts';
import { readAuditLogs, type LogCheck } from './audit-lines';
import type { ProofContext } from './proof-context';
import type { ProofProblem } from './proof-problems';
import { proveCalls, type ProofCall } from './prove-calls';
import { proveDecisions, type ProofDecision } from './prove-decisions';
import type { SourcedHistory } from './read-histories';

export interface ProveOptions {
  workflowId: string;
  /** Every link of the run (any order); see read-histories.ts. */
  histories: readonly SourcedHistory[];
  /** The audit log file, or a folder of per-process logs. */
  auditLog: string;
  /** The folder of head copies (AGENT_AUDIT_HEAD_DIR). */
  headDir: string;
  /** Keys the auditor trusts (`--keys`). Without them, the registry the worker recorded in the history. */
  keys?: Record<string, string>;
  /** The namespace the run lives in: signatures name it, and an exported history does not. */
  namespace: string;
  /** Decodes sealed payloads (the project's codec, from AGENT_ENCRYPTION_KEY). */
  dataConverter?: DataConverter;
}

export interface AuditProof {
  ok: boolean;
  workflowId: string;
  links: { runId: string; end: LinkEnd; source: string }[];
  logs: LogCheck[];
  /** Whether person decisions had to be signed, and whose keys checked them. */
  signatures: { required: boolean; keys: 'given' | 'history' | 'none' };
  calls: ProofCall[];
  decisions: ProofDecision[];
  problems: ProofProblem[];
}

export async function proveRun(options: ProveOptions): Promise<AuditProof> {
  const links = orderChain(options.workflowId, options.histories);
  const facts = await readRunFacts(links, loadDataConverter(options.dataConverter));
  const { checks, lines } = await readAuditLogs(options.auditLog, options.headDir);
  const keys = options.keys ?? facts.approverKeys;
  const runIds = new Set(links.map((l) => l.runId));
  const ofWorkflow = lines.filter((l) => l.record.run === options.workflowId);
  const ctx: ProofContext = {
    workflowId: options.workflowId,
    namespace: options.namespace,
    facts,
    lines: ofWorkflow.filter((l) => l.record.runId !== undefined && runIds.has(l.record.runId)),
    keys,
    problems: [],
  };
  for (const check of checks) {
    if (!check.ok) ctx.problems.push({ callId: '-', kind: 'log_broken', detail: `${check.file} line ${check.line}: ${check.reason}` });
  }
  const calls = proveCalls(ctx);
  const decisions = proveDecisions(ctx, ofWorkflow);
  return {
    ok: ctx.problems.length === 0,
    workflowId: options.workflowId,
    links: links.map(({ runId, end, source }) => ({ runId, end, source })),
    logs: checks,
    signatures: { required: keys !== undefined, keys: options.keys ? 'given' : facts.approverKeys ? 'history' : 'none' },
    calls,
    decisions,
    problems: ctx.problems,
  };
}
