// The audit decisions are one zod enum: the audit record's type uses it, and every kind the run
// machine writes (here the guardrail's refusal) is in it, so a log that has one verifies.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { AUDIT_DECISIONS, AuditDecisionSchema } from '../../src/contract/audit-decision';
import { AuditRecordSchema, GENESIS_HASH } from '../../src/runtime/audit/audit-record';
import { verifyAuditFile } from '../../src/runtime/audit/verify-audit';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

const line = (decision: string) => ({
  v: 2, seq: 1, at: '2026-01-01T00:00:00.000Z', prev: GENESIS_HASH, kind: 'decision', run: 'r', agent: 'general', iteration: 1, tool: 'read_file', callId: 'c', decision, via: 'guardrail',
});

describe('AuditDecisionSchema', () => {
  it('lists the guardrail refusal the run machine writes', () => {
    expect(AUDIT_DECISIONS).toContain('guardrail_reject');
    expect(AuditDecisionSchema.parse('guardrail_reject')).toBe('guardrail_reject');
  });

  it('makes the audit record refuse a decision kind it does not list', () => {
    expect(AuditRecordSchema.safeParse(line('guardrail_reject')).success).toBe(true);
    const refused = AuditRecordSchema.safeParse(line('made_up'));
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['decision']);
  });
});

describe('audit lines of a guardrail that refuses a call', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('records guardrail_reject, and the log verifies', async () => {
    const task = uniqueId('audit-guardrail');
    const general = builtinAgents.find((a) => a.name === 'general')!;
    const guarded: AgentDefinitionInput = {
      ...general,
      name: 'guarded',
      guardrails: [{ name: 'no-env-files', on: 'tool', onTrip: 'reject_call', tools: ['read_file'], check: { function: 'noEnv' } }],
    };
    const noEnv = (s: { on: string; input?: unknown }) => ((s.input as { path?: string })?.path === '.env' ? { pass: false as const, reason: '.env holds secrets' } : { pass: true as const });
    fake.script(task, [reply(toolCall('read_file', { path: '.env' })), reply(toolCall('complete_task', { summary: 'done', status: 'success' }))]);
    const dir = await mkdtemp(path.join(tmpdir(), 'audit-decisions-'));
    const auditLog = path.join(dir, 'audit.log');
    try {
      await withAgentWorker({ ...bed.harness(), agents: [guarded], guardrails: { noEnv }, auditLog }, async ({ start }) => {
        expect((await (await start({ agent: 'guarded', task })).result()).status).toBe('completed');
      });
      const records = (await readFile(auditLog, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(records).toContainEqual(expect.objectContaining({ kind: 'decision', tool: 'read_file', decision: 'guardrail_reject', via: 'guardrail' }));
      expect(await verifyAuditFile(auditLog)).toMatchObject({ ok: true });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
