// `agentctl audit verify`, run as a real process. TEMPORAL_ADDRESS points at a port nobody listens
// on: the verb must never need a server.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditChain } from '../../src/runtime/audit/audit-chain';
import { agentctl } from './agentctl-process';

let NO_SERVER: Record<string, string>;
let heads: string;
let dir: string;
let intact: string;
let tampered: string;

async function writeLog(file: string): Promise<void> {
  const chain = await AuditChain.open(file);
  for (const n of [1, 2, 3]) {
    await chain.append({ kind: 'decision', at: '2025-01-02T03:04:05.000Z', run: 'run-1', agent: 'general', iteration: n, tool: 'shell', callId: `c${n}`, decision: 'approve', approver: 'alice', verified: true, via: 'update' });
  }
  await chain.close();
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'audit-cli-'));
  // The head copies in their own folder, for the writer here and the agentctl processes alike.
  heads = await mkdtemp(path.join(tmpdir(), 'audit-cli-heads-'));
  process.env.AGENT_AUDIT_HEAD_DIR = heads;
  NO_SERVER = { TEMPORAL_ADDRESS: '127.0.0.1:1', AGENT_AUDIT_HEAD_DIR: heads };
  intact = path.join(dir, 'intact.log');
  tampered = path.join(dir, 'tampered.log');
  await writeLog(intact);
  await writeLog(tampered);
  const text = await readFile(tampered, 'utf8');
  await writeFile(tampered, text.replace('"callId":"c2","decision":"approve","approver":"alice"', '"callId":"c2","decision":"approve","approver":"mallory"'));
});
afterAll(async () => {
  delete process.env.AGENT_AUDIT_HEAD_DIR;
  await rm(dir, { recursive: true, force: true });
  await rm(heads, { recursive: true, force: true });
});

describe('agentctl audit verify', () => {
  it('says an intact log is intact and exits 0', async () => {
    const { code, stdout } = await agentctl(['audit', 'verify', intact], NO_SERVER);
    expect(code).toBe(0);
    expect(stdout).toBe(`3 lines, chain intact (${intact})\n`);
  });

  it('names the first changed line and exits 1, also as JSON', async () => {
    const human = await agentctl(['audit', 'verify', tampered], NO_SERVER);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/^line 2: was changed after it was written/);
    const json = await agentctl(['audit', 'verify', tampered, '--json'], NO_SERVER);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ file: tampered, ok: false, line: 2, lines: 3 });
  });

  it('reads AGENT_AUDIT_LOG when no file is named, and says clearly when there is no log', async () => {
    const fromEnv = await agentctl(['audit', 'verify', '--json'], { ...NO_SERVER, AGENT_AUDIT_LOG: intact });
    expect(fromEnv.code).toBe(0);
    expect(JSON.parse(fromEnv.stdout)).toEqual({ file: intact, ok: true, lines: 3, lastLineChecked: true });
    const missing = await agentctl(['audit', 'verify', path.join(dir, 'none.log')], NO_SERVER);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`No audit log at ${path.join(dir, 'none.log')}`);
    const usage = await agentctl(['audit', 'check'], NO_SERVER);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: agentctl audit verify [file|folder]');
  });

  it('checks every log of a folder (one per worker process), and a log removed whole, naming each', async () => {
    const folder = await agentctl(['audit', 'verify', dir], NO_SERVER);
    expect(folder.code).toBe(1);
    expect(folder.stdout).toContain(`ok   3 lines, chain intact (${intact})`);
    expect(folder.stdout).toContain('FAIL line 2: was changed after it was written');
    // Without a path, AGENT_AUDIT_DIR is the folder.
    const fromEnv = await agentctl(['audit', 'verify', '--json'], { ...NO_SERVER, AGENT_AUDIT_DIR: dir });
    expect(JSON.parse(fromEnv.stdout)).toMatchObject({ folder: dir, ok: false, logs: [{ file: intact, ok: true }, { file: tampered, ok: false, line: 2 }] });
    // A log deleted whole, head and all: its copy still says it was written.
    const gone = path.join(dir, 'gone.log');
    await writeLog(gone);
    await rm(gone);
    await rm(`${gone}.head`);
    const after = await agentctl(['audit', 'verify', dir, '--json'], NO_SERVER);
    expect(JSON.parse(after.stdout).logs).toContainEqual(expect.objectContaining({ file: gone, ok: false, reason: expect.stringContaining('the whole log was removed') }));
  });
});
