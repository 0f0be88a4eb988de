// The recordAudit local activity run twice with the same entries, as a workflow task that failed
// after its local activity wrote (UnhandledCommand) runs it again in the retried task: each decision
// is written once (the fuzzer's seed 79: "2 person decisions in the audit log, all from one message").
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityDeps } from '../../../src/runtime/activities/activity-deps';
import { createRecordAudit } from '../../../src/runtime/activities/record-audit';
import { AuditChain } from '../../../src/runtime/audit/audit-chain';
import type { AuditEntry } from '../../../src/runtime/audit/audit-record';
import { verifyAuditFile } from '../../../src/runtime/audit/verify-audit';

const decided = (callId: string, at: string, approver = 'ann'): AuditEntry => ({
  kind: 'decision',
  at,
  run: 'run-1',
  runId: 'run-id-1',
  agent: 'general',
  iteration: 1,
  tool: 'write_file',
  callId,
  arguments: { path: 'a.md', content: 'x' },
  decision: 'reject',
  approver,
  via: 'signal',
  reason: 'no',
});

let dir: string;
let file: string;
let chain: AuditChain;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'record-audit-'));
  file = path.join(dir, 'log', 'audit.log');
  process.env.AGENT_AUDIT_HEAD_DIR = path.join(dir, 'heads');
  chain = await AuditChain.open(file);
});
afterEach(async () => {
  await chain?.close();
  delete process.env.AGENT_AUDIT_HEAD_DIR;
  await rm(dir, { recursive: true, force: true });
});

const lines = async () => (await readFile(file, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { seq: number; callId: string; approver?: string });

describe('recordAudit', () => {
  it('writes an entry once when a retried workflow task runs it again (the retry may see a later workflow time)', async () => {
    const recordAudit = createRecordAudit({ audit: chain } as unknown as ActivityDeps);
    const first = await recordAudit([decided('c1', '2026-11-28T10:00:00.000Z'), decided('c2', '2026-11-28T10:00:00.000Z')]);
    // The retried task: the same decisions, its clock 39 ms later.
    const again = await recordAudit([decided('c1', '2026-11-28T10:00:00.039Z'), decided('c2', '2026-11-28T10:00:00.039Z')]);
    expect(again).toEqual(first);
    expect((await lines()).map((l) => l.callId)).toEqual(['c1', 'c2']);
    // A different decision (another call, or another person on the same call) is still written.
    await recordAudit([decided('c3', '2026-11-28T10:00:01.000Z'), decided('c1', '2026-11-28T10:00:01.000Z', 'bob')]);
    expect((await lines()).map((l) => `${l.seq} ${l.callId} ${l.approver}`)).toEqual(['1 c1 ann', '2 c2 ann', '3 c3 ann', '4 c1 bob']);
    expect(await verifyAuditFile(file)).toMatchObject({ ok: true });
  });

  it('writes the same decision again for another run link (another runId)', async () => {
    const recordAudit = createRecordAudit({ audit: chain } as unknown as ActivityDeps);
    await recordAudit([decided('c1', '2026-11-28T10:00:00.000Z')]);
    await recordAudit([{ ...decided('c1', '2026-11-28T10:00:00.000Z'), runId: 'run-id-2' }]);
    expect(await lines()).toHaveLength(2);
  });
});
