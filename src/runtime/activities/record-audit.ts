import { hashLine, lineOf, type AuditEntry, type AuditReceipt } from '../audit/audit-record';
import type { ActivityDeps } from './activity-deps';

/**
 * Writes decisions to the audit log (a person's approve/reject, a policy refusal, a timeout, a call
 * whose outcome is unknown). An activity task the deciding workflow task schedules (patch
 * `audit-after-commit`; a local activity inside that task before): the server starts it only once it
 * kept that task, so no task it never kept leaves a line, and the line is on disk (fsynced) before the
 * server starts any tool the decision allowed and before an update that carried it is answered.
 *
 * An entry it wrote lately is not written again (`AuditChain.appendOnce`, which also remembers the
 * end of a log it reopened): a workflow task that failed after this ran (UnhandledCommand, or a worker
 * that died) runs it again in the retried task; its receipt names the line written the first time.
 *
 * It returns the hash of each line written (`AuditReceipt`). The workflow ignores it, but the history
 * keeps it in the local activity's marker, so `agentctl audit prove` can tell which workflow task
 * wrote which line. A result is not replayed against code, so older histories replay unchanged.
 */
export function createRecordAudit(deps: ActivityDeps) {
  return async function recordAudit(entries: AuditEntry[]): Promise<AuditReceipt> {
    const lines: string[] = [];
    for (const entry of entries) {
      // Once: a retried workflow task runs this local activity again with the same entries.
      const record = await deps.audit?.appendOnce(entry);
      if (record) lines.push(hashLine(lineOf(record)));
    }
    return { lines };
  };
}
