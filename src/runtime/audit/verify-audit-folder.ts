// `agentctl audit verify` on a folder: every worker process writes its own log there (by default
// `<host>-<pid>.log` in AGENT_AUDIT_DIR), so every log of the folder is checked, and so is every log
// the head copies say was written there: a log deleted whole shows up as missing.
import { readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { AuditLogMissingError } from '../../contract/errors';
import { logsWithHeadCopies } from './audit-head';
import { defaultHeadDir } from './audit-path';
import { verifyAuditFile, type AuditVerification } from './verify-audit';

export type FolderEntry = { file: string } & AuditVerification;

export async function verifyAuditFolder(folder: string, options: { headDir?: string } = {}): Promise<FolderEntry[]> {
  const dir = path.resolve(folder);
  const headDir = path.resolve(options.headDir ?? defaultHeadDir());
  const present = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.log')).map((name) => path.join(dir, name));
  const known = (await logsWithHeadCopies(headDir)).filter((log) => path.dirname(log) === dir);
  const logs = [...new Set([...present, ...known])].sort();
  if (logs.length === 0) {
    throw new AuditLogMissingError(`No audit logs in ${dir}, and no head copies in ${headDir} name any. Name the folder or file, or set AGENT_AUDIT_DIR / AGENT_AUDIT_LOG.`);
  }
  const results: FolderEntry[] = [];
  for (const file of logs) {
    try {
      results.push({ file, ...(await verifyAuditFile(file, { headDir })) });
    } catch (error) {
      if (!(error instanceof AuditLogMissingError)) throw error;
      // The copy says lines were written to it; the file is gone.
      results.push({ file, ok: false, line: 1, lines: 0, reason: `missing: the whole log was removed (${error.message})` });
    }
  }
  return results;
}
