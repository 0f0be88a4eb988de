import type { AuditEntry } from '../audit/audit-record';
import type { ActivityDeps } from './activity-deps';

/**
 * Writes decisions to the audit log (a person's approve/reject, a policy refusal, a timeout, a call
 * whose outcome is unknown). A local activity: it runs inside the workflow task that made the
 * decision, so the line is on disk (fsynced) before that task completes, before the server starts
 * any tool the decision allowed and before an update that carried it is answered.
 */
export function createRecordAudit(deps: ActivityDeps) {
  return async function recordAudit(entries: AuditEntry[]): Promise<void> {
    for (const entry of entries) await deps.audit?.append(entry);
  };
}
