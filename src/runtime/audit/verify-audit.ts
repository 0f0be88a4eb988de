import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import { AuditLogMissingError } from '../../contract/errors';
import { headCopyPathOf, headPathOf, readHead, readHeadCopy, type HeadRead } from './audit-head';
import { defaultHeadDir } from './audit-path';
import { GENESIS_HASH, hashLine, parseAuditLine } from './audit-record';

export type AuditVerification =
  /** `lastLineChecked`: both heads vouched for the last line (always true when `ok`; kept for callers of version 2). */
  | { ok: true; lines: number; lastLineChecked: boolean }
  /** `line` is the first line that is broken, or missing; `reason` is worded to follow "line N: ". */
  | { ok: false; line: number; reason: string; lines: number };

type Break = { line: number; reason: string };

/**
 * Why line `n` breaks the chain, if it does. An edited line still parses, so it shows up on the line
 * after it, whose `prev` no longer matches; that is reported against the edited line.
 */
function breakAt(bytes: Buffer, n: number, prevHash: string): Break | undefined {
  const parsed = parseAuditLine(bytes.toString('utf8'));
  if (!parsed.ok) return { line: n, reason: parsed.problem };
  const { seq, prev } = parsed.record;
  if (seq > n) {
    const gone = seq - n === 1 ? `line ${n} was` : `lines ${n} to ${seq - 1} were`;
    return { line: n, reason: `missing: the line here has seq ${seq}, so ${gone} removed` };
  }
  if (seq < n) return { line: n, reason: `has seq ${seq} where ${n} was expected: a line was inserted or copied, or lines were reordered` };
  if (prev === prevHash) return undefined;
  if (n === 1) return { line: 1, reason: 'does not start the chain (its prev is not 64 zeros): lines before it were removed' };
  return {
    line: n - 1,
    reason: `was changed after it was written, or lines after it were removed or inserted: the prev of line ${n} is not the hash of line ${n - 1}`,
  };
}

/**
 * The chain read from the file: its line count, the first break, and the hashes of the lines from
 * `keepFrom` on (heads only move forward, so a head read later records one of those).
 */
async function readChain(file: string, keepFrom: number): Promise<{ lines: number; broken?: Break; hashes: Map<number, string> }> {
  let lines = 0;
  let prevHash = GENESIS_HASH;
  let broken: Break | undefined;
  const hashes = new Map<number, string>();
  const check = (bytes: Buffer) => {
    lines += 1;
    const hash = hashLine(bytes);
    if (lines >= keepFrom) hashes.set(lines, hash);
    broken ??= breakAt(bytes, lines, prevHash);
    prevHash = hash;
  };
  let rest = Buffer.alloc(0);
  for await (const chunk of createReadStream(file)) {
    let data = Buffer.concat([rest, chunk as Buffer]);
    for (let newline = data.indexOf(0x0a); newline >= 0; newline = data.indexOf(0x0a)) {
      check(data.subarray(0, newline));
      data = data.subarray(newline + 1);
    }
    rest = data;
  }
  if (rest.length > 0) {
    lines += 1;
    broken ??= { line: lines, reason: 'has no newline at its end: a write stopped part way, or the file was cut' };
  }
  return { lines, broken, hashes };
}

/**
 * Checks an audit log written by AuditChain and reports the first broken line: not JSON, not a
 * record, a seq out of order, a `prev` that is not the hash of the line before, or an unfinished last
 * line. The chain cannot vouch for the last line (no line comes after it) nor notice lines cut from
 * the end, so both heads must be present and record exactly the last line: `<file>.head`, and its
 * copy in `headDir` (AGENT_AUDIT_HEAD_DIR). A missing head, a head older than the log, and an empty
 * log all fail. A writer appending while this runs can leave the heads behind the lines read, so
 * they are read again before a head that lags is called older than the log.
 *
 * What this catches is an edit, removal or insertion by someone who could not also rewrite the head
 * copy; the hashes carry no key, so someone who can write both folders can rewrite the log unseen.
 */
export async function verifyAuditFile(file: string, options: { headDir?: string } = {}): Promise<AuditVerification> {
  const headDir = path.resolve(options.headDir ?? defaultHeadDir());
  const readHeads = async (): Promise<[string, HeadRead][]> => [
    [headPathOf(file), await readHead(file)],
    [headCopyPathOf(file, headDir), await readHeadCopy(file, headDir)],
  ];
  let heads = await readHeads();
  try {
    await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const left = heads.filter(([, h]) => h.kind !== 'absent').map(([where]) => where);
    const removed = left.length === 0 ? '' : ` (${left.join(' and ')} exist${left.length === 1 ? 's' : ''}: the log was removed or moved)`;
    throw new AuditLogMissingError(`No audit log at ${file}${removed}. Name the file or folder, or set AGENT_AUDIT_LOG / AGENT_AUDIT_DIR.`);
  }
  const recorded = heads.flatMap(([, h]) => (h.kind === 'valid' ? [h.head.seq] : []));
  const { lines, broken, hashes } = await readChain(file, recorded.length > 0 ? Math.min(...recorded) : Number.POSITIVE_INFINITY);
  if (broken) return { ok: false, ...broken, lines };
  if (lines === 0) {
    return { ok: false, line: 1, lines, reason: 'missing: the log is empty (a worker writes a log with its first line, so it was emptied or replaced)' };
  }
  if (heads.some(([, h]) => h.kind === 'valid' && h.head.seq < lines)) heads = await readHeads();
  for (const [where, head] of heads) {
    const problem = checkHead(head, where, lines, hashes);
    if (problem) return { ok: false, ...problem, lines };
  }
  return { ok: true, lines, lastLineChecked: true };
}

function checkHead(head: HeadRead, where: string, lines: number, hashes: ReadonlyMap<number, string>): Break | undefined {
  if (head.kind === 'absent') {
    return { line: lines, reason: `cannot be checked: ${where} is missing, so lines cut from the end would go unseen (it was deleted, or the head folder is not the one the worker used)` };
  }
  if (head.kind === 'invalid') return { line: lines, reason: `cannot be checked: ${head.problem}` };
  const { seq, hash } = head.head;
  if (seq > lines) {
    const gone = seq - lines === 1 ? `line ${seq} was` : `lines ${lines + 1} to ${seq} were`;
    return { line: lines + 1, reason: `missing: the file ends after line ${lines} but ${where} records line ${seq}, so ${gone} removed` };
  }
  if (hashes.get(seq) !== hash) return { line: seq, reason: `was changed after it was written: its hash is not the one ${where} records` };
  if (seq < lines) {
    return { line: seq + 1, reason: `is not covered by ${where}, which records line ${seq}: the head is older than the log (a crash just after a write, or an old head put back)` };
  }
  return undefined;
}
