import type { Command } from '../cli-context';
import { UsageError } from '../errors';
import { terminalSafe } from '../terminal-safe';
import { verifyAuditFile } from '../../audit/verify-audit';
import { auditLogPathFromEnv } from '../../audit/audit-path';

/**
 * `agentctl audit verify [file]`: checks the audit log's hash chain and head. It reads only the file,
 * never Temporal, so it works on a copy of a log far from any server.
 */
export const auditCommand: Command = {
  name: 'audit',
  usage: 'agentctl audit verify [file] [--json]   (file: AGENT_AUDIT_LOG, or ./.agent-audit.log)',
  summary: 'check that the audit log is intact: no line changed, removed or inserted',
  async run(ctx) {
    const [action, named, ...extra] = ctx.args.positionals;
    if (action !== 'verify' || extra.length > 0) throw new UsageError('audit takes one action, verify, and at most one file');
    const file = named ?? auditLogPathFromEnv();
    if (!file) throw new UsageError('AGENT_AUDIT_LOG is off, so there is no default log; name the file');
    const result = await verifyAuditFile(file);
    // The reason can quote the file (a malformed field), which anyone able to edit the log controls.
    ctx.print({ file, ...result }, () =>
      terminalSafe(
        result.ok
          ? `${result.lines} lines, chain intact (${file})${result.lastLineChecked ? '' : '\nThe last line is not covered by a .head file, so an edit of it would go unseen.'}`
          : `line ${result.line}: ${result.reason}\n(${file}, ${result.lines} lines)`,
      ),
    );
    return result.ok ? 0 : 1;
  },
};
