// The audit log cannot be cut unseen: the attacks of issue 19, each against a log a worker wrote.
// Someone who can write the log's folder cuts lines and deletes (or rewrites) `.head`; the head copy
// in AGENT_AUDIT_HEAD_DIR still records the real end, so `verify` fails and a worker refuses to
// reopen the log instead of writing a new head over the cut.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditChain } from '../../../src/runtime/audit/audit-chain';
import { headCopyPathOf } from '../../../src/runtime/audit/audit-head';
import { hashLine, type AuditEntry } from '../../../src/runtime/audit/audit-record';
import { verifyAuditFile } from '../../../src/runtime/audit/verify-audit';
import { AuditLogCorruptError, AuditLogPlacementError } from '../../../src/contract/errors';
import { createAgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';
import { temporalAddress, uniqueId } from '../../support/temporal';

const entry = (n: number): AuditEntry => ({
  kind: 'decision',
  at: '2025-01-02T03:04:05.000Z',
  run: 'run-1',
  agent: 'general',
  iteration: n,
  tool: 'shell',
  callId: `c${n}`,
  decision: 'approve',
  approver: 'alice',
  verified: true,
  via: 'update',
});

let dir: string;
let file: string;
let headDir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'audit-cut-'));
  file = path.join(dir, 'logs', 'audit.log');
  headDir = path.join(dir, 'heads');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function writeLog(count: number): Promise<string[]> {
  const chain = await AuditChain.open(file, { headDir });
  for (let n = 1; n <= count; n += 1) await chain.append(entry(n));
  await chain.close();
  return (await readFile(file, 'utf8')).split('\n').slice(0, -1);
}
const writeLines = (lines: string[]) => writeFile(file, lines.map((l) => `${l}\n`).join(''));
const verify = () => verifyAuditFile(file, { headDir });

describe('audit verify against truncation', () => {
  it('fails on a log with its last line removed and its head deleted', async () => {
    const lines = await writeLog(4);
    await writeLines(lines.slice(0, 3));
    await rm(`${file}.head`);
    const result = await verify();
    expect(result).toMatchObject({ ok: false, line: 3, lines: 3 });
    expect(result.ok || result.reason).toMatch(/\.head is missing/);
  });

  it('fails on a log with its last line removed and its head rewritten to match, through the head copy', async () => {
    const lines = await writeLog(4);
    await writeLines(lines.slice(0, 3));
    // The hashes carry no key: whoever cuts the log can compute a matching head.
    await writeFile(`${file}.head`, JSON.stringify({ seq: 3, hash: hashLine(lines[2]!) }));
    expect(await verify()).toMatchObject({ ok: false, line: 4, reason: expect.stringContaining(`${headCopyPathOf(file, headDir)} records line 4, so line 4 was removed`) });
  });

  it('fails on an emptied log, with its heads or without them', async () => {
    await writeLog(2);
    await writeFile(file, '');
    expect(await verify()).toMatchObject({ ok: false, line: 1, reason: expect.stringMatching(/the log is empty/) });
    await rm(`${file}.head`);
    await rm(headCopyPathOf(file, headDir));
    expect(await verify()).toMatchObject({ ok: false, line: 1, reason: expect.stringMatching(/the log is empty/) });
  });

  it('fails on a head older than the log (an old copy put back)', async () => {
    const lines = await writeLog(4);
    await writeFile(headCopyPathOf(file, headDir), JSON.stringify({ seq: 2, hash: hashLine(lines[1]!), log: file }));
    expect(await verify()).toMatchObject({ ok: false, line: 3, reason: expect.stringMatching(/older than the log/) });
  });
});

describe('a worker restart over a cut log', () => {
  it('refuses to reopen a log cut with its head deleted, and leaves the head copy as it was', async () => {
    const lines = await writeLog(4);
    await writeLines(lines.slice(0, 3));
    await rm(`${file}.head`);
    const copyBefore = await readFile(headCopyPathOf(file, headDir), 'utf8');
    const error = await AuditChain.open(file, { headDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuditLogCorruptError);
    expect((error as Error).message).toMatch(/has 3 lines but no head at .*audit\.log\.head/);
    expect(await readFile(headCopyPathOf(file, headDir), 'utf8')).toBe(copyBefore);
    await expect(readFile(`${file}.head`)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await verify()).toMatchObject({ ok: false });
  });

  it('refuses a log cut with its head rewritten, and an emptied log whose copy remains', async () => {
    const lines = await writeLog(4);
    await writeLines(lines.slice(0, 3));
    await writeFile(`${file}.head`, JSON.stringify({ seq: 3, hash: hashLine(lines[2]!) }));
    await expect(AuditChain.open(file, { headDir })).rejects.toThrow(/ends at line 3 but .*heads.* records line 4: lines were removed/);
    await writeFile(file, '');
    await rm(`${file}.head`);
    await expect(AuditChain.open(file, { headDir })).rejects.toThrow(/is empty but .*heads.* records line 4/);
  });

  it('refuses through the worker itself: createAgentWorker with the cut log does not start', async () => {
    const lines = await writeLog(3);
    await writeLines(lines.slice(0, 2));
    await rm(`${file}.head`);
    const workspaceRoot = await mkdtemp(path.join(tmpdir(), 'audit-cut-ws-'));
    try {
      // The worker finds the head copies where its settings say (AGENT_AUDIT_HEAD_DIR in its env).
      // A model key too, or the start would stop at the model check before it reads the log.
      const env = { AGENT_SANDBOX: 'none', AGENT_AUDIT_HEAD_DIR: headDir, ANTHROPIC_API_KEY: 'test' };
      const error = await createAgentWorker({ address: temporalAddress(), taskQueue: uniqueId('cut-q'), workspaceRoot, auditLog: file, env }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuditLogCorruptError);
    } finally {
      await rm(workspaceRoot, { recursive: true, force: true });
    }
    expect(await verify()).toMatchObject({ ok: false });
  });

  it('continues an intact log after a restart, and creates no file for a worker that recorded nothing', async () => {
    await writeLog(2);
    const chain = await AuditChain.open(file, { headDir });
    expect((await chain.append(entry(3))).seq).toBe(3);
    await chain.close();
    expect(await verify()).toEqual({ ok: true, lines: 3, lastLineChecked: true });
    const idle = path.join(dir, 'logs', 'idle.log');
    await (await AuditChain.open(idle, { headDir })).close();
    expect((await readdir(path.join(dir, 'logs'))).filter((n) => n.startsWith('idle'))).toEqual([]);
  });

  it('refuses head copies kept in the log\'s own folder', async () => {
    await expect(AuditChain.open(file, { headDir: path.join(dir, 'logs', 'heads') })).rejects.toThrow(AuditLogPlacementError);
  });
});
