// The checkers and the generator on their own, without a server: each invariant fires on a trace
// that breaks it and stays quiet on one that keeps it, so a fuzzer run with 0 violations means the
// checks ran, not that they could not fail.
import { describe, expect, it } from 'vitest';
import type { RunStatus } from '../../../src/contract/run-status';
import type { AuditRecord } from '../../../src/runtime/audit/audit-record';
import type { Marker } from './canaries';
import type { Evidence } from './evidence';
import type { Trace } from './executor';
import { checkInvariants, claimOf, type Invariant } from './invariants';
import type { SentMessage } from './messenger';
import { generateSchedule } from './schedule';

const RUN = 'fz1-run';
const T0 = Date.parse('2026-11-28T10:00:00Z');

function message(partial: Partial<SentMessage> & Pick<SentMessage, 'tag' | 'name'>): SentMessage {
  return { kind: 'decide', via: 'update', payload: {}, callIds: [], sentAt: T0, link: 1, settledAt: T0 + 10, ...partial };
}

function line(partial: Partial<AuditRecord>): AuditRecord {
  return { v: 2, seq: 1, at: new Date(T0 + 5).toISOString(), prev: '0'.repeat(64), kind: 'decision', run: RUN, agent: 'fuzz', iteration: 1, tool: 'canary_write', callId: 'c1', decision: 'approve', via: 'update', ...partial } as AuditRecord;
}

function trace(messages: SentMessage[], extra: Partial<Trace> = {}): Trace {
  return { schedule: generateSchedule(1), tag: 'fz1', workflowId: RUN, taskQueue: 'q', tasks: { main: '', child: () => '', callPrefix: '' }, messages, notes: [], links: 1, closedAs: 'COMPLETED', elapsedMs: 1, ...extra };
}

function evidence(extra: { audit?: AuditRecord[]; markers?: Marker[]; decisions?: RunStatus['decisions']; failure?: string; replayErrors?: Evidence['replayErrors'] } = {}): Evidence {
  const status = { decisions: extra.decisions ?? [], ignored: [] } as unknown as RunStatus;
  return { runs: [{ workflowId: RUN, links: [], status, taskFailures: [], ...(extra.failure ? { failure: extra.failure } : {}) }], audit: extra.audit ?? [], markers: extra.markers ?? [], requests: [], replayErrors: extra.replayErrors ?? [] };
}

const kinds = (t: Trace, e: Evidence): Invariant[] => checkInvariants(t, e).map((v) => v.invariant);
const decision = (approver: string, callId = 'c1', via: 'update' | 'signal' = 'update') => ({ callId, tool: 'canary_write', decision: 'approve' as const, approver, decidedAt: new Date(T0).toISOString(), via });
const marker = (partial: Partial<Marker>): Marker => ({ workflowId: RUN, callId: 'c1', tool: 'canary_write', attempt: 1, at: T0 + 20, input: { step: 0, fault: 'none' }, permission: { by: 'person', writes: true }, ...partial });

describe('fuzzer invariants', () => {
  it('keep quiet on a run where an applied decision is in the audit log and the state, and its tool ran once after it', () => {
    const sent = message({ tag: 'm1', name: 'decideApproval', callIds: ['c1'], outcome: { type: 'applied', message: 'approve applied to c1' } });
    const e = evidence({ audit: [line({ approver: 'm1' })], decisions: [decision('m1')], markers: [marker({ decisionOnDisk: { decision: 'approve', approver: 'm1', via: 'update', seq: 1 } })] });
    expect(checkInvariants(trace([sent]), e)).toEqual([]);
  });

  it('flag an update refused with "No registered handler", one never answered, and one abandoned at a continue-as-new', () => {
    const messages = [
      message({ tag: 'm1', name: 'setMode', outcome: { type: 'refused', message: 'No registered handler for update: setMode' } }),
      message({ tag: 'm2', name: 'sendMessage', settledAt: undefined }),
      message({ tag: 'm3', name: 'sendMessage', outcome: { type: 'refused', message: 'Workflow Update failed because the Workflow completed before the Update completed.' } }),
    ];
    expect(kinds(trace(messages), evidence())).toEqual(['no-handler', 'update-answered', 'update-answered']);
  });

  it('flag a status query that throws while the run starts', () => {
    const query = message({ tag: 'm1', name: 'status', via: 'query', outcome: { type: 'error', message: 'QueryNotRegisteredError: The run is starting; try again in a moment.' } });
    expect(kinds(trace([query]), evidence())).toEqual(['status-answers']);
  });

  it('flag an applied decision missing from the audit log, and a refused one that is in it', () => {
    const appliedNowhere = message({ tag: 'm1', name: 'decideApproval', callIds: ['c1'], outcome: { type: 'applied', message: 'approve applied to c1' } });
    const refusedButLogged = message({ tag: 'm2', name: 'decideApproval', callIds: ['c2'], outcome: { type: 'refused', message: 'no pending approval' } });
    const e = evidence({ audit: [line({ approver: 'm2', callId: 'c2' })], decisions: [decision('m2', 'c2')] });
    expect(kinds(trace([appliedNowhere, refusedButLogged]), e)).toEqual(['answer-matches-log', 'answer-matches-log', 'answer-matches-log']);
  });

  // Seed 89: a decision forwarded to a sub-agent's run is answered "delivered … not applied yet"; that
  // run then ignored it (the call was already decided) and said so in its status.
  it('hold a decision delivered to a sub-agent run, not applied yet, to that run applying it or recording why not', () => {
    const CHILD = `${RUN}/sub-c0`;
    const single = 'approve for c9 delivered to fz1-run/sub-c0, the sub-agent run that waits for it; not applied yet: that run checks its signature and applies it (or records in its status why not)';
    const batch = '1 delivered to the sub-agent runs that wait for them, not applied yet (each checks its signature and applies it, or records in its status why not): c9 → fz1-run/sub-c0';
    const sent = [
      message({ tag: 'm1', name: 'decideApproval', callIds: ['c9'], outcome: { type: 'applied', message: single } }),
      message({ tag: 'm2', name: 'decideApprovals', callIds: ['c9'], outcome: { type: 'applied', message: batch } }),
    ];
    const withChild = (ignored: RunStatus['ignored'], audit: AuditRecord[] = [], decisions: RunStatus['decisions'] = []): Evidence => {
      const e = evidence({ audit });
      const status = { decisions, ignored } as unknown as RunStatus;
      return { ...e, runs: [...e.runs, { workflowId: CHILD, links: [], status, taskFailures: [] }] };
    };
    const why = (tag: string) => ({ kind: 'approval', reason: 'call c9 was already decided; decision ignored', payload: JSON.stringify({ callId: 'c9', decision: 'approve', approver: tag }), at: new Date(T0).toISOString() });
    // Recorded why not: consistent.
    expect(kinds(trace(sent), withChild([why('m1'), why('m2')]))).toEqual([]);
    // Applied by the child (its audit line and state): consistent.
    expect(kinds(trace(sent.slice(0, 1)), withChild([], [line({ approver: 'm1', callId: 'c9', run: CHILD })], [decision('m1', 'c9')]))).toEqual([]);
    // Neither: the decision was lost, for both answers.
    expect(kinds(trace(sent), withChild([]))).toEqual(['answer-matches-log', 'answer-matches-log']);
    // One recorded, the other not: only the other.
    expect(checkInvariants(trace(sent), withChild([why('m1')])).map((v) => v.detail)).toEqual([expect.stringContaining('decideApprovals m2')]);
  });

  it('read which calls an answer says were applied, delivered, not delivered or perhaps not delivered', () => {
    expect(claimOf('approve applied to c1', 'c1')).toBe('applied');
    expect(claimOf('approve for c1 forwarded to w/sub-c, the sub-agent run that waits for it', 'c1')).toBe('applied');
    expect(claimOf('approve for c1 delivered to w/sub-c, the sub-agent run that waits for it; not applied yet: that run checks', 'c1')).toBe('delivered');
    const batch = '1 decision(s) applied here (c1); 1 call(s) settled, 0 still parked; 2 delivered to the sub-agent runs that wait for them, not applied yet (each checks its signature and applies it, or records in its status why not): c2 → w/sub-a, c3 → w/sub-b (not delivered: the run no longer takes signals (gone))';
    expect([claimOf(batch, 'c1'), claimOf(batch, 'c2'), claimOf(batch, 'c3')]).toEqual(['applied', 'delivered', 'undelivered']);
    expect(claimOf('1 decision(s) applied here (c1); 1 call(s) settled, 0 still parked; the rest (c2, c3) may not have reached the sub-agent runs that wait for them: decide them again; the run was cancelled', 'c3')).toBe('unknown');
     const byUpdate = '1 decision(s) applied here (c1); 1 call(s) settled, 0 still parked; sub-agent runs: c2, c4 → w/sub-a: applied (2 decision(s) applied (c2, c4); 2 call(s) settled, 0 still parked); c3 → w/sub-b: refused (call c3 was already decided; decision ignored); c5 → w/sub-c: sent, no answer (timed out); it may or may not have applied them';
    expect(['c1', 'c2', 'c3', 'c4', 'c5'].map((id) => claimOf(byUpdate, id))).toEqual(['applied', 'applied', 'undelivered', 'applied', 'unknown']);
  });

  it('flag a decision the audit log has but the final state lost (a stale hand-over), and the other way round', () => {
    const lost = evidence({ audit: [line({ approver: 'sig1', via: 'signal' })] });
    expect(kinds(trace([]), lost)).toEqual(['state-matches-audit']);
    const unaudited = evidence({ decisions: [decision('sig1', 'c1', 'signal')] });
    expect(kinds(trace([]), unaudited)).toEqual(['state-matches-audit']);
  });

  it('flag a write canary that ran without its decision on disk, or by a rule nothing loosened, or after a refusal', () => {
    expect(kinds(trace([]), evidence({ markers: [marker({})] }))).toEqual(['tool-without-decision']);
    expect(kinds(trace([]), evidence({ markers: [marker({ permission: { by: 'rule', writes: true } })] }))).toEqual(['tool-without-decision']);
    const modeFirst = line({ kind: 'mode', mode: 'acceptEdits', tool: 'setMode', callId: 'k', decision: undefined, reason: 'm0' });
    expect(kinds(trace([]), evidence({ audit: [modeFirst], markers: [marker({ permission: { by: 'rule', writes: true } })] }))).toEqual([]);
    const rejected = line({ decision: 'reject', approver: 'm1' });
    const ranAnyway = marker({ decisionOnDisk: { decision: 'approve', approver: 'x', via: 'update', seq: 2 } });
    expect(kinds(trace([]), evidence({ audit: [rejected], decisions: [{ ...decision('m1'), decision: 'reject' }], markers: [ranAnyway] }))).toEqual(['tool-without-decision']);
  });

  it('flag a once-only tool that ran twice, and a call decided twice', () => {
    const onDisk = { decision: 'approve' as const, approver: 'm1', via: 'update', seq: 1 };
    const twice = [marker({ decisionOnDisk: onDisk }), marker({ attempt: 2, decisionOnDisk: onDisk })];
    expect(kinds(trace([]), evidence({ audit: [line({ approver: 'm1' })], decisions: [decision('m1')], markers: twice }))).toEqual(['tool-ran-twice']);
    const two = [line({ approver: 'm1' }), line({ approver: 'm2', seq: 2 })];
    expect(kinds(trace([]), evidence({ audit: two, decisions: [decision('m1'), decision('m2')] }))).toEqual(['decided-twice']);
  });

  it('flag a stuck run, a failed run and a history that does not replay', () => {
    const e = evidence({ failure: 'boom (RunFailed)', replayErrors: [{ workflowId: RUN, runId: 'r', error: 'DeterminismViolationError: x' }] });
    expect(kinds(trace([], { stuck: 'still running after 30000 ms' }), e)).toEqual(['stuck', 'run-failed', 'replay']);
  });
});

describe('the schedule generator', () => {
  it('is pure: a seed always gives the same schedule, and seeds differ', () => {
    expect(generateSchedule(42)).toEqual(generateSchedule(42));
    expect(JSON.stringify(generateSchedule(42))).not.toEqual(JSON.stringify(generateSchedule(43)));
  });

  it('gives schedules a run accepts: a history budget the input allows, turns that end in a completion, a sub-agent only in teams', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const s = generateSchedule(seed);
      expect(s.maxEvents).toBeGreaterThanOrEqual(50);
      expect(s.turns.at(-1)).toEqual({ complete: true });
      expect(s.childTurns.length > 0).toBe(s.shape === 'team');
      expect(s.steps.length).toBeGreaterThan(0);
    }
  });
});
