// The audit lines a proof reads: every line of every log named (a file, or a folder of per-process
// logs), with where it stands and the hash of its exact text, once the chains were checked.
import { readFile, stat } from 'node:fs/promises';
import { AuditLogMissingError } from '../../../contract/errors';
import { hashLine, parseAuditLine, type AuditRecord } from '../audit-record';
import { verifyAuditFile, type AuditVerification } from '../verify-audit';
import { verifyAuditFolder } from '../verify-audit-folder';

export interface LogLine {
  file: string;
  seq: number;
  /** The hex SHA-256 of the line's exact text: what a `recordAudit` receipt in the history holds. */
  hash: string;
  record: AuditRecord;
}

export type LogCheck = { file: string } & AuditVerification;

/** The lines of one log that parse; a broken line is reported by the chain check, not here. */
async function linesOf(file: string): Promise<LogLine[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const lines: LogLine[] = [];
  for (const raw of text.split('\n')) {
    if (raw === '') continue;
    const parsed = parseAuditLine(raw);
    if (parsed.ok) lines.push({ file, seq: parsed.record.seq, hash: hashLine(raw), record: parsed.record });
  }
  return lines;
}

/** Checks the chain of each log at `target` (a file or a folder) and reads their lines. */
export async function readAuditLogs(target: string, headDir: string): Promise<{ checks: LogCheck[]; lines: LogLine[] }> {
  const folder = await stat(target).then((s) => s.isDirectory(), () => false);
  let checks: LogCheck[];
  if (folder) checks = await verifyAuditFolder(target, { headDir });
  else {
    try {
      checks = [{ file: target, ...(await verifyAuditFile(target, { headDir })) }];
    } catch (error) {
      if (error instanceof AuditLogMissingError) throw new AuditLogMissingError(`${error.message} (give the log the run's worker wrote with --audit-log)`);
      throw error;
    }
  }
  const lines: LogLine[] = [];
  for (const check of checks) lines.push(...(await linesOf(check.file)));
  return { checks, lines };
}
