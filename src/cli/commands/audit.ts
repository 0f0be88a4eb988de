import { stat } from 'node:fs/promises';
import type { Command } from '../../client/cli-context';
import { UsageError } from '../../client/errors';
import { terminalSafe } from '../../client/terminal-safe';
import { verifyAuditFile, type AuditVerification } from '../../runtime/audit/verify-audit';
import { verifyAuditFolder } from '../../runtime/audit/verify-audit-folder';
import { proveAction } from './audit-prove';

const isFolder = (target: string) => stat(target).then((s) => s.isDirectory(), () => false);

/** One log's verdict; the reason can quote the file (a malformed field), which anyone able to edit the log controls. */
const verdict = (file: string, result: AuditVerification) =>
  result.ok ? `${result.lines} lines, chain intact (${file})` : `line ${result.line}: ${result.reason}\n(${file}, ${result.lines} lines)`;

/**
 * `agentctl audit verify [file|folder]`: checks audit logs' hash chains and both heads (the one beside
 * each log and its copy in AGENT_AUDIT_HEAD_DIR, or `--heads`). Without an argument it checks
 * AGENT_AUDIT_LOG, or when that names no file every log in AGENT_AUDIT_DIR (one per worker process).
 * It reads only files, never Temporal, so it works on a copy far from any server (copy the head
 * folder along and name it with `--heads`).
 *
 * `agentctl audit prove <workflowId>` (audit-prove.ts) checks a log against the run's history.
 */
export const auditCommand: Command = {
  name: 'audit',
  usage:
    'agentctl audit verify [file|folder] [--heads dir] [--json]   ' +
    '(default: AGENT_AUDIT_LOG, or every log in AGENT_AUDIT_DIR (./.agent-audit); heads: AGENT_AUDIT_HEAD_DIR)\n' +
    '       agentctl audit prove <workflowId> [--history file.json|folder]... [--audit-log file|folder] [--keys approvers.json] [--heads dir] [--json]   ' +
    '(default: the run\'s histories from Temporal, and the log audit verify reads)',
  summary: 'check that the audit logs are intact, and prove from a run\'s history that every side effect had its decision',
  async run(ctx) {
    const [action, named, ...extra] = ctx.args.positionals;
    const { audit } = ctx.clientSettings;
    const heads = ctx.args.flags.heads;
    if (heads === true) throw new UsageError('--heads names the folder of head copies');
    const headDir = typeof heads === 'string' ? heads : audit.headDir;
    if (action === 'prove') return proveAction(ctx, named, extra, headDir);
    if (action !== 'verify' || extra.length > 0) throw new UsageError('audit takes an action, verify (with at most one file or folder) or prove (with a workflow id)');
    const target = named ?? audit.log ?? audit.dir;
    if (await isFolder(target)) {
      const logs = await verifyAuditFolder(target, { headDir });
      const ok = logs.every((log) => log.ok);
      ctx.print({ folder: target, ok, logs }, () => terminalSafe(logs.map((log) => `${log.ok ? 'ok  ' : 'FAIL'} ${verdict(log.file, log)}`).join('\n')));
      return ok ? 0 : 1;
    }
    const result = await verifyAuditFile(target, { headDir });
    ctx.print({ file: target, ...result }, () => terminalSafe(verdict(target, result)));
    return result.ok ? 0 : 1;
  },
};
