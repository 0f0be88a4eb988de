import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLog, auditLogPathFromEnv, type AuditRecord } from '../../src/lifecycle/audit-log';
import { lifecycleEvent as ev } from './event-factory';

function collecting() {
  const lines: string[] = [];
  const log = new AuditLog({ write: (line) => void lines.push(line) });
  const records = async () => {
    await log.flush();
    return lines.map((l) => JSON.parse(l) as AuditRecord);
  };
  return { log, lines, records };
}

describe('AuditLog', () => {
  it('writes one line for a call the policy allowed, when it ends', async () => {
    const { log, records } = collecting();
    log.handle(ev('toolStarted', { tool: 'read_file', callId: 'c1', arguments: { path: 'a.md' } }));
    log.handle(ev('toolEnded', { tool: 'read_file', callId: 'c1', arguments: { path: 'a.md' }, success: true, durationMs: 7, approval: { decision: 'policy_allow', via: 'policy' } }));
    expect(await records()).toEqual([
      {
        at: '2025-01-02T03:04:05.678Z',
        run: 'run-1',
        runId: 'run-id-1',
        agent: 'general',
        iteration: 1,
        tool: 'read_file',
        callId: 'c1',
        arguments: { path: 'a.md' },
        decision: 'allowed_by_policy',
        decisionDetail: 'policy_allow',
        outcome: 'success',
        durationMs: 7,
      },
    ]);
  });

  it('records the approver of an approved call, taken from the tool event itself', async () => {
    const { log, records } = collecting();
    // No approval events seen here (another worker handled them): toolEnded alone is enough.
    log.handle(ev('toolEnded', { tool: 'shell', callId: 'c2', arguments: { command: 'ls' }, success: false, durationMs: 30, approval: { decision: 'approve_always', approver: 'alice', via: 'signal' } }));
    expect(await records()).toEqual([
      expect.objectContaining({ tool: 'shell', decision: 'approved', decisionDetail: 'approve_always', approver: 'alice', outcome: 'error', durationMs: 30 }),
    ]);
  });

  it('writes a line for a rejected call with the arguments it was parked with', async () => {
    const { log, records } = collecting();
    log.handle(ev('approvalRequested', { tool: 'write_file', callId: 'c3', input: { path: 'x', content: 'y' } }));
    log.handle(ev('approvalDecided', { tool: 'write_file', callId: 'c3', decision: 'reject', approver: 'bob', reason: 'not now' }));
    log.handle(ev('approvalDecided', { tool: 'shell', callId: 'c4', decision: 'policy_reject', reason: 'rule rm -rf', arguments: { command: 'rm -rf /' } }));
    log.handle(ev('approvalDecided', { tool: 'shell', callId: 'c5', decision: 'timed_out', reason: 'timed out' }));
    expect(await records()).toEqual([
      expect.objectContaining({ callId: 'c3', arguments: { path: 'x', content: 'y' }, decision: 'rejected', decisionDetail: 'reject', approver: 'bob', reason: 'not now', outcome: 'not_run' }),
      expect.objectContaining({ callId: 'c4', arguments: { command: 'rm -rf /' }, decision: 'rejected', decisionDetail: 'policy_reject', outcome: 'not_run' }),
      expect.objectContaining({ callId: 'c5', decision: 'rejected', decisionDetail: 'timed_out', outcome: 'not_run' }),
    ]);
  });

  it('writes nothing when an approval is granted (the line comes when the call ends)', async () => {
    const { log, records } = collecting();
    log.handle(ev('approvalDecided', { tool: 'write_file', callId: 'c6', decision: 'approve', approver: 'alice' }));
    expect(await records()).toEqual([]);
  });

  it('drops a repeated event (same key)', async () => {
    const { log, records } = collecting();
    const ended = ev('toolEnded', { tool: 'shell', callId: 'c7', arguments: {}, success: true, durationMs: 1 });
    log.handle(ended);
    log.handle({ ...ended });
    expect(await records()).toHaveLength(1);
  });

  it('appends JSON lines to a file, creating its folder', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'audit-'));
    try {
      const file = path.join(dir, 'nested', 'audit.log');
      const log = new AuditLog({ file });
      for (const callId of ['a', 'b', 'c']) {
        log.handle(ev('toolEnded', { tool: 'list_files', callId, arguments: { path: '.' }, success: true, durationMs: 2 }));
      }
      await log.flush();
      const lines = (await readFile(file, 'utf8')).trim().split('\n');
      expect(lines.map((l) => (JSON.parse(l) as AuditRecord).callId)).toEqual(['a', 'b', 'c']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('auditLogPathFromEnv', () => {
  it('defaults to ./.agent-audit.log, takes AGENT_AUDIT_LOG, and is disabled by "off"', () => {
    expect(auditLogPathFromEnv({})).toBe(path.resolve('.agent-audit.log'));
    expect(auditLogPathFromEnv({ AGENT_AUDIT_LOG: '/var/log/agent.jsonl' })).toBe('/var/log/agent.jsonl');
    expect(auditLogPathFromEnv({ AGENT_AUDIT_LOG: 'off' })).toBeUndefined();
  });
});
