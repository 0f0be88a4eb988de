import { spawnSync } from 'node:child_process';
import { appendFile, mkdtemp, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuditChain } from '../../../src/runtime/audit/audit-chain';
import { GENESIS_HASH, hashLine, type AuditEntry } from '../../../src/runtime/audit/audit-record';
import { verifyAuditFile } from '../../../src/runtime/audit/verify-audit';
import { AuditLogCorruptError, AuditLogLockedError, AuditLogMissingError, AuditLogUnavailableError } from '../../../src/contract/errors';

const entry = (n: number): AuditEntry => ({
  kind: 'call',
  at: `2025-01-02T03:04:0${n % 10}.000Z`,
  run: 'run-1',
  runId: 'run-id-1',
  agent: 'general',
  iteration: n,
  tool: 'read_file',
  callId: `c${n}`,
  arguments: { path: `file-${n}.md` },
  decision: 'policy_allow',
  via: 'policy',
  outcome: 'success',
  durationMs: n,
});

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'audit-chain-'));
  file = path.join(dir, 'nested', 'audit.log');
  // The head copies go beside the log's folder, not in the home folder of whoever runs the tests.
  process.env.AGENT_AUDIT_HEAD_DIR = path.join(dir, 'heads');
});
afterEach(async () => {
  vi.restoreAllMocks();
  delete process.env.AGENT_AUDIT_HEAD_DIR;
  await rm(dir, { recursive: true, force: true });
});

/** A closed log of `count` lines. */
async function writeLog(count: number): Promise<void> {
  const chain = await AuditChain.open(file);
  for (let n = 1; n <= count; n += 1) await chain.append(entry(n));
  await chain.close();
}

const readLines = async () => (await readFile(file, 'utf8')).split('\n').slice(0, -1);
const writeLines = (lines: string[]) => writeFile(file, lines.map((l) => `${l}\n`).join(''));

describe('AuditChain', () => {
  it('writes numbered lines, each holding the hash of the one before, and they verify', async () => {
    await writeLog(5);
    const lines = await readLines();
    const records = lines.map((l) => JSON.parse(l) as { seq: number; prev: string; v: number });
    expect(records.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(records[0]!.prev).toBe(GENESIS_HASH);
    expect(records[3]!.prev).toBe(hashLine(lines[2]!));
    expect(Object.keys(records[0]!).slice(0, 5)).toEqual(['v', 'seq', 'at', 'prev', 'kind']);
    expect(JSON.parse(await readFile(`${file}.head`, 'utf8'))).toEqual({ seq: 5, hash: hashLine(lines[4]!) });
    expect(await verifyAuditFile(file)).toEqual({ ok: true, lines: 5, lastLineChecked: true });
  });

  it('reports an edited middle line as that line', async () => {
    await writeLog(5);
    const lines = await readLines();
    lines[2] = lines[2]!.replace('"tool":"read_file"', '"tool":"shell"');
    await writeLines(lines);
    const result = await verifyAuditFile(file);
    expect(result).toMatchObject({ ok: false, line: 3, lines: 5 });
    expect(result.ok || result.reason).toMatch(/changed after it was written.*prev of line 4 is not the hash of line 3/);
  });

  it('reports a removed line by its number', async () => {
    await writeLog(5);
    const lines = await readLines();
    lines.splice(2, 1);
    await writeLines(lines);
    const result = await verifyAuditFile(file);
    expect(result).toMatchObject({ ok: false, line: 3, lines: 4 });
    expect(result.ok || result.reason).toMatch(/line 3 was removed/);
  });

  it('catches a removed line even when the lines after it were renumbered', async () => {
    await writeLog(5);
    const lines = await readLines();
    lines.splice(2, 1);
    await writeLines(lines.map((l, i) => l.replace(/"seq":\d+/, `"seq":${i + 1}`)));
    expect(await verifyAuditFile(file)).toMatchObject({ ok: false, line: 2 });
  });

  it('catches an edited last line through the head file', async () => {
    await writeLog(5);
    const lines = await readLines();
    lines[4] = lines[4]!.replace('"outcome":"success"', '"outcome":"error"');
    await writeLines(lines);
    const result = await verifyAuditFile(file);
    expect(result).toMatchObject({ ok: false, line: 5 });
    expect(result.ok || result.reason).toMatch(/audit\.log\.head/);
  });

  it('catches lines cut from the end through the head file', async () => {
    await writeLog(5);
    await writeLines((await readLines()).slice(0, 3));
    const result = await verifyAuditFile(file);
    expect(result).toMatchObject({ ok: false, line: 4, lines: 3 });
    expect(result.ok || result.reason).toMatch(/lines 4 to 5 were removed/);
  });

  it('fails without the head beside the log, or without its copy, since a cut end could not be told', async () => {
    await writeLog(3);
    const copy = (await readdir(path.join(dir, 'heads')))[0]!;
    await rename(path.join(dir, 'heads', copy), path.join(dir, 'copy.bak'));
    expect(await verifyAuditFile(file)).toMatchObject({ ok: false, line: 3, reason: expect.stringMatching(/cannot be checked: .*heads.*is missing/) });
    await rename(path.join(dir, 'copy.bak'), path.join(dir, 'heads', copy));
    await rm(`${file}.head`);
    expect(await verifyAuditFile(file)).toMatchObject({ ok: false, line: 3, reason: expect.stringMatching(/cannot be checked: .*audit\.log\.head is missing/) });
  });

  it('reports an unfinished last line, a line of the unchained v1 log, and a missing file', async () => {
    await writeLog(2);
    await appendFile(file, '{"v":2,"seq":3');
    expect(await verifyAuditFile(file)).toMatchObject({ ok: false, line: 3, reason: expect.stringMatching(/no newline/) });

    await writeFile(file, `${JSON.stringify({ at: '2025-01-01T00:00:00.000Z', run: 'r', tool: 'shell', decision: 'approved' })}\n`);
    await rm(`${file}.head`);
    expect(await verifyAuditFile(file)).toMatchObject({ ok: false, line: 1, reason: expect.stringMatching(/version 2/) });

    await expect(verifyAuditFile(path.join(dir, 'none.log'))).rejects.toThrow(AuditLogMissingError);
  });

  it('continues the chain when reopened', async () => {
    await writeLog(2);
    const chain = await AuditChain.open(file);
    expect((await chain.append(entry(3))).seq).toBe(3);
    await chain.close();
    const lines = await readLines();
    expect(JSON.parse(lines[2]!).prev).toBe(hashLine(lines[1]!));
    expect(await verifyAuditFile(file)).toEqual({ ok: true, lines: 3, lastLineChecked: true });
  });

  it('remembers, when reopened, the records at the end of the log, so a retried recordAudit writes none of them again', async () => {
    // A worker that died after its local activity wrote, before its workflow task was kept: the worker
    // that reopens the log runs the same activity again, with a later clock (the fuzzer's seed 1).
    const first = await AuditChain.open(file);
    await first.appendOnce(entry(1));
    await first.appendOnce(entry(2));
    await first.close();
    const second = await AuditChain.open(file);
    const again = await second.appendOnce({ ...entry(2), at: '2025-01-02T03:05:00.000Z' });
    const changed = await second.appendOnce({ ...entry(2), at: '2025-01-02T03:05:00.000Z', reason: 'another reason' });
    await second.close();
    expect(again.seq).toBe(2);
    expect(changed.seq).toBe(3);
    expect((await readLines()).length).toBe(3);
    expect(await verifyAuditFile(file)).toEqual({ ok: true, lines: 3, lastLineChecked: true });
  });

  it('reads back large arguments (stored as a digest) as the same record, so they are not written twice either', async () => {
    const big = { ...entry(1), arguments: { text: 'x'.repeat(200_000) } };
    const first = await AuditChain.open(file);
    await first.appendOnce(big);
    await first.close();
    const second = await AuditChain.open(file);
    expect((await second.appendOnce({ ...big, at: '2025-01-02T03:05:00.000Z' })).seq).toBe(1);
    await second.close();
    expect((await readLines()).length).toBe(1);
  });

  it('brings a lagging head up to date when reopened (a crash between the line and the head)', async () => {
    await writeLog(3);
    const lines = await readLines();
    await writeFile(`${file}.head`, JSON.stringify({ seq: 2, hash: hashLine(lines[1]!) }));
    // Until the worker reopens it, the log is ahead of its head, and verify says so.
    expect(await verifyAuditFile(file)).toMatchObject({ ok: false, line: 3, reason: expect.stringMatching(/older than the log/) });
    await (await AuditChain.open(file)).close();
    expect(await verifyAuditFile(file)).toEqual({ ok: true, lines: 3, lastLineChecked: true });
  });

  it('refuses to reopen a log that does not end in a valid record or contradicts its head', async () => {
    await writeLog(3);
    const lines = await readLines();
    const refused = async () => {
      const error = await AuditChain.open(file).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(AuditLogCorruptError);
      expect((error as Error).message).toContain('agentctl audit verify');
    };
    await writeLines([...lines.slice(0, 2), 'not json']);
    await refused();
    await writeFile(file, `${lines.join('\n')}\n{"v":2`);
    await refused();
    await writeLines([...lines.slice(0, 2), lines[2]!.replace('c3', 'c9')]);
    await refused();
    await writeLines(lines.slice(0, 2));
    await refused();
    // Each refusal released the lock: the intact file opens.
    await writeLines(lines);
    await (await AuditChain.open(file)).close();
  });

  it('keeps the order of concurrent appends', async () => {
    const chain = await AuditChain.open(file);
    const written = await Promise.all(Array.from({ length: 20 }, (_, i) => chain.append(entry(i + 1))));
    await chain.close();
    expect(written.map((r) => r.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await readLines()).map((l) => JSON.parse(l).callId)).toEqual(written.map((r) => r.callId));
    expect(await verifyAuditFile(file)).toMatchObject({ ok: true, lines: 20 });
  });

  it('fsyncs each line before the append resolves, and refuses further records once a write failed', async () => {
    const probe = await open(path.join(dir, 'probe'), 'w');
    const handleProto = Object.getPrototypeOf(probe) as { appendFile: () => Promise<void>; sync: () => Promise<void> };
    await probe.close();
    const chain = await AuditChain.open(file);
    const written = vi.spyOn(handleProto, 'appendFile');
    const synced = vi.spyOn(handleProto, 'sync');
    await chain.append(entry(1));
    // The line's write, then its fsync (then the fsyncs of the head and of its copy).
    expect(written.mock.invocationCallOrder[0]).toBeLessThan(synced.mock.invocationCallOrder[0]!);
    expect(synced).toHaveBeenCalledTimes(3);

    synced.mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    await expect(chain.append(entry(2))).rejects.toThrow(AuditLogUnavailableError);
    await expect(chain.append(entry(3))).rejects.toThrow(/An earlier write .* failed/);
    await chain.close();
    await expect(chain.append(entry(4))).rejects.toThrow(/is closed/);
  });

  it('refuses a second opener while the first holds the lock, and takes over a stale lock', async () => {
    const first = await AuditChain.open(file);
    await expect(AuditChain.open(file)).rejects.toThrow(AuditLogLockedError);
    expect(await readFile(`${file}.lock`, 'utf8')).toBe(`${process.pid}\n`);
    await first.close();

    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    await writeFile(`${file}.lock`, `${dead}\n`);
    const second = await AuditChain.open(file);
    expect(await readFile(`${file}.lock`, 'utf8')).toBe(`${process.pid}\n`);
    await second.close();
    await expect(readFile(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
