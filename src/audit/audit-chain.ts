import { mkdir, open, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { describeZodError } from '../describe-zod-error';
import { AuditLogCorruptError, AuditLogUnavailableError, InvalidAuditRecordError } from '../errors';
import { auditArguments } from './audit-arguments';
import { headPathOf, readHead, writeHead } from './audit-head';
import { acquireAuditLock } from './audit-lock';
import { AUDIT_RECORD_VERSION, AuditRecordSchema, GENESIS_HASH, hashLine, parseAuditLine, type AuditEntry, type AuditRecord } from './audit-record';
import { readLastLine } from './last-line';

/**
 * The audit log writer. Each line is one JSON record that carries its 1-based line number (`seq`)
 * and the SHA-256 of the line before it (`prev`), so an edited, removed or inserted line breaks the
 * chain where it happened; `<file>.head` holds the last line's hash, so an edited last line or a
 * cut-off end is caught too (see `verifyAuditFile`).
 *
 * `append` resolves only once the line is written and fsynced, so a caller that records a decision
 * before acknowledging it knows the record survives a crash. Appends are queued, so concurrent calls
 * get consecutive seqs in the order they were made.
 *
 * One file belongs to one worker process. Two processes appending to one file would each extend the
 * chain from the end they last saw, writing two lines with the same seq and prev: the log would be
 * broken at once. `open` takes `<file>.lock` (our pid, created exclusively) to catch that mistake on
 * one host; give each worker its own file.
 */
export class AuditChain {
  private queue: Promise<unknown> = Promise.resolve();
  private failure: unknown;
  private closing: Promise<void> | undefined;

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
    private readonly releaseLock: () => Promise<void>,
    private seq: number,
    private prev: string,
  ) {}

  /**
   * Opens (or creates) the log and continues its chain. Refuses with AuditLogCorruptError when the
   * file does not end in a valid record, or contradicts its head, since appending would extend a chain
   * that is already broken; and with AuditLogLockedError when another live process has it open.
   */
  static async open(file: string): Promise<AuditChain> {
    const resolved = path.resolve(file);
    await mkdir(path.dirname(resolved), { recursive: true });
    const releaseLock = await acquireAuditLock(resolved);
    try {
      const end = await chainEnd(resolved);
      const handle = await open(resolved, 'a');
      return new AuditChain(resolved, handle, releaseLock, end.seq, end.hash);
    } catch (error) {
      await releaseLock();
      throw error;
    }
  }

  /** Writes one record and fsyncs it; resolves with the record as written. */
  append(entry: AuditEntry): Promise<AuditRecord> {
    if (this.closing) return Promise.reject(new AuditLogUnavailableError(`${this.file} is closed; no more records can be written to it.`));
    const written = this.queue.then(() => this.write(entry));
    this.queue = written.catch(() => undefined);
    return written;
  }

  /** Waits for queued appends, then closes the file and releases the lock. */
  close(): Promise<void> {
    this.closing ??= this.queue.then(async () => {
      await this.handle.close();
      await this.releaseLock();
    });
    return this.closing;
  }

  private async write(entry: AuditEntry): Promise<AuditRecord> {
    if (this.failure !== undefined) {
      throw new AuditLogUnavailableError(
        `An earlier write to ${this.file} failed, so it may end in a partial line; run \`agentctl audit verify ${this.file}\` and reopen it.`,
        { cause: this.failure },
      );
    }
    const { arguments: args, ...fields } = entry;
    // The chain's own fields come last so a caller cannot set them; parsing puts them first in the line.
    const candidate = { ...fields, ...(args === undefined ? {} : { arguments: auditArguments(args) }), v: AUDIT_RECORD_VERSION, seq: this.seq + 1, prev: this.prev };
    const parsed = AuditRecordSchema.safeParse(candidate);
    if (!parsed.success) throw new InvalidAuditRecordError(`Audit record for ${entry.run}/${entry.callId} is malformed:\n${describeZodError(parsed.error)}`);
    const record = parsed.data;
    const line = JSON.stringify(record);
    try {
      await this.handle.appendFile(`${line}\n`, 'utf8');
      await this.handle.sync();
    } catch (error) {
      this.failure = error;
      throw new AuditLogUnavailableError(`Could not write audit record ${record.seq} to ${this.file}.`, { cause: error });
    }
    this.seq = record.seq;
    this.prev = hashLine(line);
    try {
      await writeHead(this.file, { seq: this.seq, hash: this.prev });
    } catch (error) {
      this.failure = error;
      throw new AuditLogUnavailableError(`Audit record ${record.seq} was written to ${this.file}, but ${headPathOf(this.file)} could not be updated.`, {
        cause: error,
      });
    }
    return record;
  }
}

/**
 * Where the chain continues: the last line's seq and hash. The head is checked against the last line
 * and brought up to date when it lags (a crash between the line's fsync and the head's rename).
 */
async function chainEnd(file: string): Promise<{ seq: number; hash: string }> {
  const corrupt = (problem: string) =>
    new AuditLogCorruptError(`${file} ${problem}; appending would extend a broken chain. Run \`agentctl audit verify ${file}\` to find the first bad line.`);
  const last = await readLastLine(file);
  if (last.kind === 'unterminated') throw corrupt('does not end with a newline (a write stopped part way, or the file was cut)');
  let end = { seq: 0, hash: GENESIS_HASH };
  if (last.kind === 'line') {
    const parsed = parseAuditLine(last.bytes.toString('utf8'));
    if (!parsed.ok) throw corrupt(`ends in a line that is ${parsed.problem}`);
    end = { seq: parsed.record.seq, hash: hashLine(last.bytes) };
  }
  const head = await readHead(file);
  if (head.kind === 'invalid') throw corrupt(`has a broken head: ${head.problem}`);
  if (head.kind === 'valid' && head.head.seq > end.seq) {
    throw corrupt(`ends at line ${end.seq} but ${headPathOf(file)} records line ${head.head.seq}: lines were removed from its end`);
  }
  if (head.kind === 'valid' && head.head.seq === end.seq && head.head.hash !== end.hash) {
    throw corrupt(`has a last line (${end.seq}) that no longer matches ${headPathOf(file)}: it was changed`);
  }
  if (end.seq > 0 && !(head.kind === 'valid' && head.head.seq === end.seq)) await writeHead(file, end);
  return end;
}
