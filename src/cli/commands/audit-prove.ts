import type { Client } from '@temporalio/client';
import type { CliContext } from '../../client/cli-context';
import { UsageError } from '../../client/errors';
import { terminalSafe } from '../../client/terminal-safe';
import { textTable } from '../../client/text-table';
import { loadApproverRegistry } from '../../runtime/approvals/approver-registry';
import { proveRun, type AuditProof } from '../../runtime/audit/prove/prove-run';
import { readHistories, type SourcedHistory } from '../../runtime/audit/prove/read-histories';

/**
 * Every link of the run from the server, newest first then reversed: each link's first event names
 * the link it continues, so the chain is walked through the histories alone.
 */
export async function fetchHistories(client: Client, workflowId: string): Promise<SourcedHistory[]> {
  const links: SourcedHistory[] = [];
  let runId: string | undefined = (await client.workflow.getHandle(workflowId).describe()).runId;
  while (runId) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    links.unshift({ source: `temporal (run ${runId})`, history });
    runId = history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  }
  return links;
}

const file = (path: string) => path.split(/[\\/]/).pop()!;

/** The proof as a person reads it: what was read, a table of calls, one of decision lines, the verdict. */
export function renderProof(proof: AuditProof): string {
  const links = proof.links.map((l) => `${l.runId} (${l.end.replace(/_/g, ' ')})`).join(' → ');
  const logs = proof.logs.map((l) => (l.ok ? `${file(l.file)}: ${l.lines} lines, chain intact` : `${file(l.file)}: BROKEN at line ${l.line}`)).join('; ');
  const signing = proof.signatures.required ? `signatures required (keys: ${proof.signatures.keys === 'given' ? '--keys' : "the worker's registry, from the history"})` : 'no signatures required';
  const calls = proof.calls.map((c) => [
    c.callId,
    c.tool,
    c.ran,
    c.excluded ? '-' : (c.decision ?? 'NONE'),
    c.line ?? '-',
    c.signature ?? '-',
    c.excluded ? `not needed: ${c.excluded}` : c.ok ? 'ok' : 'PROBLEM',
  ]);
  const decisions = proof.decisions.map((d) => [d.line, d.callId, d.tool, `${d.decision}${d.approver ? ` by ${d.approver}` : ''} (${d.via ?? '?'})`, d.status, d.ok ? 'ok' : 'PROBLEM']);
  const effects = proof.calls.filter((c) => !c.excluded).length;
  const verdict = proof.ok
    ? `PROOF HOLDS: ${effects} call(s) that could have a side effect, each decided before it was scheduled; ${proof.decisions.length} decision line(s), each borne out by the history.`
    : [`PROOF FAILS: ${proof.problems.length} problem(s)`, ...proof.problems.map((p) => `  ${p.callId}  ${p.kind}  ${p.detail}`)].join('\n');
  return [
    `Run ${proof.workflowId}: ${links}`,
    `Audit log ${logs}; ${signing}`,
    '',
    calls.length > 0 ? textTable(['CALL', 'TOOL', 'RAN', 'DECISION', 'LINE', 'SIGNED', 'VERDICT'], calls) : 'No tool calls ran.',
    '',
    decisions.length > 0 ? textTable(['LINE', 'CALL', 'TOOL', 'DECISION', 'STATUS', 'VERDICT'], decisions) : 'No decision lines name this run.',
    '',
    verdict,
  ].join('\n');
}

/**
 * `agentctl audit prove <workflowId>`: reads the run's histories (`--history`, any number of files or
 * folders, or the server's when none is named) and the audit log, and proves each side effect had its
 * decision. Exits 1 on any problem, naming the call.
 */
export async function proveAction(ctx: CliContext, workflowId: string | undefined, extra: string[], headDir: string): Promise<number> {
  if (!workflowId || extra.length > 0) throw new UsageError('audit prove takes one workflow id');
  const { flags, values } = ctx.args;
  for (const name of ['history', 'audit-log', 'keys'] as const) {
    if (flags[name] === true) throw new UsageError(`--${name} names a ${name === 'history' ? 'history file or folder' : name === 'keys' ? 'approver registry file' : 'log file or folder'}`);
  }
  const keysFile = typeof flags.keys === 'string' ? flags.keys : undefined;
  const histories = values.history ? await readHistories(values.history) : await fetchHistories(await ctx.client(), workflowId);
  const proof = await proveRun({
    workflowId,
    histories,
    auditLog: typeof flags['audit-log'] === 'string' ? flags['audit-log'] : (ctx.clientSettings.audit.log ?? ctx.clientSettings.audit.dir),
    headDir,
    keys: keysFile ? loadApproverRegistry(keysFile) : undefined,
    namespace: ctx.settings.namespace,
    dataConverter: ctx.settings.dataConverter,
  });
  const { ok, calls, decisions, problems, ...rest } = proof;
  ctx.print({ ok, calls, decisions, problems, ...rest }, () => terminalSafe(renderProof(proof)));
  return ok ? 0 : 1;
}
