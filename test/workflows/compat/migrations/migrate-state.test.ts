// Every checkpoint shape a released worker wrote still becomes a valid current state (no server needed).
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CURRENT_STATE_VERSION, migrateState } from '../../../../src/workflows/compat/migrations/migrate-state';
import { permissionOf } from '../../../../src/core/machine/call-records';
import { pendingApprovalsOf } from '../../../../src/core/machine/run-status';
import { RunStateSchema } from '../../../../src/core/machine/run-state';

const FIXTURES = path.join(__dirname, '..', '..', '..', 'fixtures');
const fixture = (name: string) => JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;
/** Every committed checkpoint, of every version: a new fixture is read here without editing this file. */
const checkpointFixtures = readdirSync(FIXTURES).filter((name) => /^run-state-v\d+.*\.json$/.test(name)).sort();
const NOW = '2026-11-23T12:00:00.000Z';

describe('migrateState', () => {
  it('finds the checkpoint fixtures, one or more for each version from 1 to the current one', () => {
    const versions = new Set(checkpointFixtures.map((name) => Number(/^run-state-v(\d+)/.exec(name)![1])));
    expect([...versions].sort((a, b) => a - b)).toEqual(Array.from({ length: CURRENT_STATE_VERSION }, (_, i) => i + 1));
  });

  it.each(checkpointFixtures)('turns %s into a valid current state', (name) => {
    const state = migrateState(fixture(name), NOW);
    expect(state.schemaVersion).toBe(CURRENT_STATE_VERSION);
    expect(RunStateSchema.safeParse(state).success).toBe(true);
  });

  it('keeps a version-2 parked call parked, with its request time and reason, as the one pending list', () => {
    const v2 = fixture('run-state-v2-parked.json') as { pendingApprovals: { callId: string; requestedAt: string; reason: string }[] };
    const state = migrateState(v2, NOW);
    expect(pendingApprovalsOf(state)).toEqual([expect.objectContaining({ callId: v2.pendingApprovals[0]!.callId, requestedAt: v2.pendingApprovals[0]!.requestedAt, reason: v2.pendingApprovals[0]!.reason })]);
  });

  it('reads version-2 tools as at-most-once unless they are read tools or write_file', () => {
    const state = migrateState(fixture('run-state-v2.json'), NOW);
    for (const [name, tool] of Object.entries(state.agent.tools)) expect(tool.idempotent).toBe(tool.scope === 'read' || name === 'write_file');
  });

  it('turns version-2 tool-wide choices into tool-wide rules, marked as migrated', () => {
    const v2 = { ...fixture('run-state-v2.json'), preferences: { alwaysApproved: ['write_file'], alwaysRejected: ['shell'] } };
    expect(migrateState(v2, NOW).preferences).toEqual([
      { tool: 'write_file', preference: 'always', match: { kind: 'tool' }, migrated: true },
      { tool: 'shell', preference: 'never', match: { kind: 'tool' }, migrated: true },
    ]);
  });

  it('gives calls let run before verdicts carried a permission the person\'s when a person approved them, otherwise the least', () => {
    // A version-3 checkpoint as workers before the permission wrote it: two calls let run, one approved
    // by a person (on record in `decisions`), one allowed by the read default; neither verdict says more.
    const state = migrateState(fixture('run-state-v3-before-permission.json'), NOW);
    const [approved, allowed] = state.turn!.calls;
    expect([approved!.stage, allowed!.stage]).toEqual([{ kind: 'run', started: false }, { kind: 'run', started: false }]);
    expect(permissionOf(state, approved!)).toEqual({ by: 'person', writes: true, network: true });
    expect(permissionOf(state, allowed!)).toEqual({ by: 'rule', writes: false, network: false });
  });

  it('reads a version-3 scope policy\'s "approve" as "ask", in the run\'s rules and the agent\'s, and keeps the decisions', () => {
    const v3 = fixture('run-state-v3.json') as { input: Record<string, unknown>; agent: Record<string, unknown> };
    // What version-3 machines wrote, including the guardrail's refusal that the audit list lacked then.
    const decisions = [
      { callId: 'a', tool: 'shell', decision: 'policy_reject', reason: 'rejected by rule "shell"', decidedAt: NOW, via: 'policy' },
      { callId: 'b', tool: 'shell', decision: 'guardrail_reject', reason: 'guardrail "g": no', decidedAt: NOW, via: 'guardrail' },
      { callId: 'c', tool: 'write_file', decision: 'approve_always', approver: 'ana', verified: true, decidedAt: NOW, via: 'update' },
      { callId: 'd', tool: 'write_file', decision: 'timed_out', reason: 'timed out', decidedAt: NOW, via: 'timeout' },
    ];
    const old = {
      ...v3,
      decisions,
      input: { ...v3.input, toolApproval: { requiresApproval: ['shell'], scopes: { read: 'allow', write: 'approve' } } },
      agent: { ...v3.agent, approval: { scopes: { execute: 'approve', write: 'reject' } } },
    };
    const state = migrateState(old, NOW);
    expect(state.input.toolApproval).toEqual({ requiresApproval: ['shell'], scopes: { read: 'allow', write: 'ask' } });
    expect(state.agent.approval).toEqual({ scopes: { execute: 'ask', write: 'reject' } });
    expect(state.decisions).toEqual(decisions);
  });

  it('refuses a version-3 decision of a kind version 4 does not list, naming where it is', () => {
    const bad = { ...fixture('run-state-v3.json'), decisions: [{ callId: 'a', tool: 'shell', decision: 'approved', decidedAt: NOW, via: 'update' }] };
    expect(() => migrateState(bad, NOW)).toThrow(/checkpoint \(schemaVersion 9\) is invalid:[\s\S]*decisions/);
  });

  it('refuses an unknown version, and a checkpoint that does not fit the schema, saying what is wrong', () => {
    expect(() => migrateState({ schemaVersion: 99 }, NOW)).toThrow(/schemaVersion 99; this worker knows versions 1 to 9/);
    expect(() => migrateState({ ...migrateState(fixture('run-state-v2.json'), NOW), iteration: -1 }, NOW)).toThrow(/checkpoint \(schemaVersion 9\) is invalid/);
  });
});

describe('v4ToV5', () => {
  it('gives a version-4 checkpoint the default permission mode, the behaviour it had', () => {
    const state = migrateState(fixture('run-state-v4.json'), NOW);
    expect(state.schemaVersion).toBe(CURRENT_STATE_VERSION);
    expect(state.mode).toBe('default');
  });

  it('reads a version-4 checkpoint as version 5 with nothing else changed but the mode', () => {
    const v4 = fixture('run-state-v4.json');
    expect(migrateState(v4, NOW)).toEqual(migrateState({ ...v4, schemaVersion: 5, mode: 'default' }, NOW));
  });

  it("keeps the API's own blocks of a version-5 checkpoint verbatim, every field and in order", () => {
    const v5 = fixture('run-state-v5.json') as { messages: { content: unknown }[] };
    const reply = v5.messages[1]!.content as { type: string }[];
    expect(reply.map((b) => b.type)).toEqual(['thinking', 'redacted_thinking', 'server_tool_use', 'web_search_tool_result', 'tool_use']);
    expect((migrateState(v5, NOW).messages[1]!.content as unknown[]).slice(0, 4)).toEqual(reply.slice(0, 4));
  });
});
