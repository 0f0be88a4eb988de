import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { AuditLogMissingError } from '../errors';
import { headPathOf, readHead, type HeadRead } from './audit-head';
import { GENESIS_HASH, hashLine, parseAuditLine } from './audit-record';

export type AuditVerification =
  /** `lastLineChecked`: `<file>.head` vouched for the last line; without it an edit of that line goes unseen. */
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
 * Checks an audit log written by AuditChain and reports the first broken line: not JSON, not a
 * record, a seq out of order, a `prev` that is not the hash of the line before, or an unfinished last
 * line. The chain cannot vouch for the last line (no line comes after it) nor notice lines cut from
 * the end, so `<file>.head`, when present, is checked too. The head is read before the file: a writer
 * appending meanwhile leaves it behind the lines read (still checked), never ahead.
 *
 * What this catches is an edit, removal or insertion by someone who did not also recompute every hash
 * after it and the head; the hashes carry no key, so someone who does can rewrite the log unseen.
 */
export async function verifyAuditFile(file: string): Promise<AuditVerification> {
  const head = await readHead(file);
  try {
    await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const removed = head.kind === 'absent' ? '' : ` (${headPathOf(file)} exists: the log was removed or moved)`;
    throw new AuditLogMissingError(`No audit log at ${file}${removed}. Name the file, or set AGENT_AUDIT_LOG.`);
  }
  let lines = 0;
  let prevHash = GENESIS_HASH;
  let headLineHash: string | undefined;
  let broken: Break | undefined;
  const check = (bytes: Buffer) => {
    lines += 1;
    const hash = hashLine(bytes);
    if (head.kind === 'valid' && head.head.seq === lines) headLineHash = hash;
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
  broken ??= checkHead(head, lines, headLineHash, file);
  if (broken) return { ok: false, ...broken, lines };
  return { ok: true, lines, lastLineChecked: head.kind === 'valid' && head.head.seq === lines };
}

function checkHead(head: HeadRead, lines: number, headLineHash: string | undefined, file: string): Break | undefined {
  if (head.kind === 'absent') return undefined;
  if (head.kind === 'invalid') return { line: lines, reason: `cannot be checked: ${head.problem}` };
  const { seq, hash } = head.head;
  if (seq > lines) {
    const gone = seq - lines === 1 ? `line ${seq} was` : `lines ${lines + 1} to ${seq} were`;
    return { line: lines + 1, reason: `missing: the file ends after line ${lines} but ${headPathOf(file)} records line ${seq}, so ${gone} removed` };
  }
  if (headLineHash !== hash) return { line: seq, reason: `was changed after it was written: its hash is not the one ${headPathOf(file)} records` };
  return undefined;
}
