import { mkdir, open, type FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { describeZodError } from '../../contract/describe-zod-error';
import { AuditLogCorruptError, AuditLogUnavailableError, InvalidAuditRecordError } from '../../contract/errors';
import { auditArguments } from './audit-arguments';
import { headCopyPathOf, headPathOf, readHead, readHeadCopy, writeHead, type AuditHead, type HeadRead } from './audit-head';
import { acquireAuditLock } from './audit-lock';
import { assertHeadDirApart, defaultHeadDir } from './audit-path';
import { AUDIT_RECORD_VERSION, AuditRecordSchema, GENESIS_HASH, hashLine, lineOf, parseAuditLine, type AuditEntry, type AuditRecord } from './audit-record';
import { readLastLine, readTailLines } from './last-line';

/**
 * The audit log writer. Each line is one JSON record that carries its 1-based line number (`seq`)
 * and the SHA-256 of the line before it (`prev`), so an edited, removed or inserted line breaks the
 * chain where it happened; `<file>.head` and its copy in the head folder (AGENT_AUDIT_HEAD_DIR) hold
 * the last line's hash, so an edited last line or a cut-off end is caught too (see `verifyAuditFile`).
 *
 * `append` resolves only once the line is written and fsynced, so a caller that records a decision
 * before acknowledging it knows the record survives a crash. Appends are queued, so concurrent calls
 * get consecutive seqs in the order they were made.
 *
 * One file belongs to one worker process. Two processes appending to one file would each extend the
 * chain from the end they last saw, writing two lines with the same seq and prev: the log would be
 * broken at once. `open` takes `<file>.lock` (our pid, created exclusively) to catch that mistake on
 * one host; by default each worker process gets its own file (`auditLogPathFromEnv`). The file is
 * created with its first line, so a worker that recorded nothing leaves no empty log behind.
 */
export class AuditChain {
  private queue: Promise<unknown> = Promise.resolve();
  /** The records `appendOnce` wrote lately, by their key (see `onceKey`), oldest first. */
  private readonly recent = new Map<string, AuditRecord>();
  private failure: unknown;
  private closing: Promise<void> | undefined;

  private handle: FileHandle | undefined;

  private constructor(
    readonly file: string,
    readonly headDir: string,
    private readonly releaseLock: () => Promise<void>,
    private seq: number,
    private prev: string,
  ) {}

  /**
   * Opens the log (created with its first line) and continues its chain. Refuses with
   * AuditLogCorruptError when the file does not end in a valid record, or does not match its head or
   * the head's copy (lines cut, a head deleted or older than the log), since appending would extend a
   * chain that is already broken and rewriting the head would hide the cut; and with
   * AuditLogLockedError when another live process has it open.
   */
  static async open(file: string, options: { headDir?: string } = {}): Promise<AuditChain> {
    const resolved = path.resolve(file);
    const headDir = path.resolve(options.headDir ?? defaultHeadDir());
    assertHeadDirApart(resolved, headDir);
    await mkdir(path.dirname(resolved), { recursive: true });
    const releaseLock = await acquireAuditLock(resolved);
    try {
      const end = await chainEnd(resolved, headDir);
      const chain = new AuditChain(resolved, headDir, releaseLock, end.seq, end.hash);
      await chain.rememberTail();
      return chain;
    } catch (error) {
      await releaseLock();
      throw error;
    }
  }

  /** Writes one record and fsyncs it; resolves with the record as written. */
  append(entry: AuditEntry): Promise<AuditRecord> {
    if (this.closing) return Promise.reject(new AuditLogUnavailableError(`${this.file} is closed; no more records can be written to it.`));
    const written = this.queue.then(() => this.write(this.recordOf(entry)));
    this.queue = written.catch(() => undefined);
    return written;
  }

  /**
   * `append`, unless this chain wrote the same entry lately (one of the last RECENT_ONCE it wrote with
   * `appendOnce`): then it resolves with that record and writes nothing. The same entry is the same
   * fields but `at`: the same run link (`runId`), call, decision, person and reason. The `recordAudit`
   * local activity writes with it, since a workflow task that failed after its local activity ran
   * (UnhandledCommand: a signal came meanwhile) runs it again in the retried task, with a later
   * workflow time (the fuzzer's seed 79 wrote a decision twice, 39 ms apart). A worker that reopens the
   * log remembers its last records too (`rememberTail`); a retry on another worker process that writes
   * its own log does not see this one.
   */
  appendOnce(entry: AuditEntry): Promise<AuditRecord> {
    if (this.closing) return Promise.reject(new AuditLogUnavailableError(`${this.file} is closed; no more records can be written to it.`));
    const written = this.queue.then(async () => {
      const record = this.recordOf(entry);
      const key = onceKey(record);
      const earlier = this.recent.get(key);
      if (earlier) return earlier;
      await this.write(record);
      this.remember(key, record);
      return record;
    });
    this.queue = written.catch(() => undefined);
    return written;
  }

  /** Waits for queued appends, then closes the file and releases the lock. */
  close(): Promise<void> {
    this.closing ??= this.queue.then(async () => {
      await this.handle?.close();
      await this.releaseLock();
    });
    return this.closing;
  }

  /**
   * What `appendOnce` remembers from before this process opened the log: the records in its last
   * TAIL_BYTES. A worker that died after its `recordAudit` wrote, before its workflow task was kept,
   * leaves the task to a worker that reopens this log and runs the same local activity again.
   */
  private async rememberTail(): Promise<void> {
    for (const bytes of (await readTailLines(this.file, TAIL_BYTES)).slice(-RECENT_ONCE)) {
      const parsed = parseAuditLine(bytes.toString('utf8'));
      if (parsed.ok) this.remember(onceKey(parsed.record), parsed.record);
    }
  }

  private remember(key: string, record: AuditRecord): void {
    this.recent.set(key, record);
    if (this.recent.size > RECENT_ONCE) this.recent.delete(this.recent.keys().next().value as string);
  }

  /** The record `entry` would be written as next. */
  private recordOf(entry: AuditEntry): AuditRecord {
    const { arguments: args, editedArguments: edited, ...fields } = entry;
    // The chain's own fields come last so a caller cannot set them; parsing puts them first in the line.
    const candidate = { ...fields, ...(args === undefined ? {} : { arguments: auditArguments(args) }), ...(edited === undefined ? {} : { editedArguments: auditArguments(edited) }), v: AUDIT_RECORD_VERSION, seq: this.seq + 1, prev: this.prev };
    const parsed = AuditRecordSchema.safeParse(candidate);
    if (!parsed.success) throw new InvalidAuditRecordError(`Audit record for ${entry.run}/${entry.callId} is malformed:\n${describeZodError(parsed.error)}`);
    return parsed.data;
  }

  /** Writes `record` (made by `recordOf` in this append's turn of the queue) and fsyncs it, then its heads. */
  private async write(record: AuditRecord): Promise<AuditRecord> {
    if (this.failure !== undefined) {
      throw new AuditLogUnavailableError(
        `An earlier write to ${this.file} failed, so it may end in a partial line; run \`agentctl audit verify ${this.file}\` and reopen it.`,
        { cause: this.failure },
      );
    }
    const line = lineOf(record);
    try {
      this.handle ??= await open(this.file, 'a');
      await this.handle.appendFile(`${line}\n`, 'utf8');
      await this.handle.sync();
    } catch (error) {
      this.failure = error;
      throw new AuditLogUnavailableError(`Could not write audit record ${record.seq} to ${this.file}.`, { cause: error });
    }
    this.seq = record.seq;
    this.prev = hashLine(line);
    try {
      await writeHead(this.file, { seq: this.seq, hash: this.prev }, this.headDir);
    } catch (error) {
      this.failure = error;
      throw new AuditLogUnavailableError(`Audit record ${record.seq} was written to ${this.file}, but its head (${headPathOf(this.file)} or its copy in ${this.headDir}) could not be updated.`, {
        cause: error,
      });
    }
    return record;
  }
}

/** How many of its latest records `appendOnce` remembers: far more than one workflow task writes. */
const RECENT_ONCE = 1024;

/** How much of the log's end a reopened chain reads to remember its records (see `rememberTail`). */
const TAIL_BYTES = 1024 * 1024;

/**
 * A record's identity for `appendOnce`: every field but `at` (a retried task's clock) and the chain's
 * own (`seq`, `prev`, `v`), in a fixed order. Taken from the record as written, so a record read back
 * from the file has the same identity as the entry it was written from.
 */
function onceKey(record: AuditRecord): string {
  const { at: _at, seq: _seq, prev: _prev, v: _v, ...rest } = record;
  return JSON.stringify(Object.keys(rest).sort().map((k) => [k, rest[k as keyof typeof rest]]));
}

/**
 * Where the chain continues: the last line's seq and hash, once the log is shown to match both heads.
 * The one mismatch repaired is a head one line behind whose hash is the last line's `prev`: a crash
 * between a line's fsync and its heads. Anything else (a missing head, a head further behind or
 * ahead, an empty log with a head) means the log was cut or changed, and rewriting the head would
 * hide it, so the worker refuses to start and says what does not match.
 */
async function chainEnd(file: string, headDir: string): Promise<{ seq: number; hash: string }> {
  const corrupt = (problem: string) =>
    new AuditLogCorruptError(
      `${file} ${problem}. The worker will not write to it or rewrite its head; run \`agentctl audit verify ${file}\`, keep the log as evidence, and start with a new AGENT_AUDIT_LOG (or none, for a log per process).`,
    );
  const last = await readLastLine(file);
  if (last.kind === 'unterminated') throw corrupt('does not end with a newline (a write stopped part way, or the file was cut)');
  let end = { seq: 0, hash: GENESIS_HASH, prev: GENESIS_HASH };
  if (last.kind === 'line') {
    const parsed = parseAuditLine(last.bytes.toString('utf8'));
    if (!parsed.ok) throw corrupt(`ends in a line that is ${parsed.problem}`);
    end = { seq: parsed.record.seq, hash: hashLine(last.bytes), prev: parsed.record.prev };
  }
  const heads: [string, HeadRead][] = [
    [headPathOf(file), await readHead(file)],
    [headCopyPathOf(file, headDir), await readHeadCopy(file, headDir)],
  ];
  let lagging = false;
  for (const [where, head] of heads) {
    if (head.kind === 'invalid') throw corrupt(`has a broken head: ${head.problem}`);
    if (head.kind === 'absent') {
      if (end.seq > 0) throw corrupt(`has ${end.seq} lines but no head at ${where}: it was deleted, so lines cut from the end could not be told`);
      continue;
    }
    const mismatch = headMismatch(head.head, end, where);
    if (mismatch === 'one behind') lagging = true;
    else if (mismatch) throw corrupt(mismatch);
  }
  if (lagging) await writeHead(file, { seq: end.seq, hash: end.hash }, headDir);
  return end;
}

/** How a head disagrees with the log's end; 'one behind' is the crash case, repaired by the caller. */
function headMismatch(head: AuditHead, end: { seq: number; hash: string; prev: string }, where: string): string | 'one behind' | undefined {
  if (end.seq === 0) return `is empty but ${where} records line ${head.seq}: the log was emptied or replaced`;
  if (head.seq > end.seq) return `ends at line ${end.seq} but ${where} records line ${head.seq}: lines were removed from its end`;
  if (head.seq === end.seq) return head.hash === end.hash ? undefined : `has a last line (${end.seq}) that no longer matches ${where}: it was changed`;
  if (head.seq === end.seq - 1 && head.hash === end.prev) return 'one behind';
  return `has ${end.seq} lines but ${where} records line ${head.seq}: the head is older than the log (replaced by an old copy, or lines were changed)`;
}
