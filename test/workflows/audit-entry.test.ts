import { describe, expect, it } from 'vitest';
import { auditEntryOf } from '../../src/workflows/audit-entry';
import { call, Machine, T0 } from '../core/machine/state-factory';

const at = new Date(T0).toISOString();

/** The audit lines the events of the machine's last transitions stand for, as the run driver writes them. */
function entriesOf(m: Machine, from: number, before = m.state) {
  return m.events.slice(from).map((e) => auditEntryOf(e, before, m.state));
}

describe('auditEntryOf', () => {
  it("writes a person's decision with the call's arguments, who decided and how", () => {
    const m = new Machine().reply(call('w', 'write_file', { path: 'a.md', content: 'x' }));
    const before = m.state;
    const from = m.events.length;
    m.send({ type: 'decision', decision: { callId: 'w', decision: 'approve', reason: 'fine', approver: 'ana' }, via: 'update', verified: false });
    expect(entriesOf(m, from, before).filter(Boolean)).toEqual([
      {
        at,
        run: 'run-1',
        runId: 'r1',
        agent: 'general',
        iteration: 1,
        tool: 'write_file',
        callId: 'w',
        kind: 'decision',
        arguments: { path: 'a.md', content: 'x' },
        decision: 'approve',
        approver: 'ana',
        verified: false,
        via: 'update',
        reason: 'fine',
      },
    ]);
  });

  it('writes a call whose outcome is unknown, with its idempotency key, and nothing for a call that ended', () => {
    const m = new Machine().reply(call('s', 'shell', { command: 'ls' }), call('r', 'read_file', { path: 'x' }));
    m.send({ type: 'decision', decision: { callId: 's', decision: 'approve', approver: 'ana' }, via: 'update', verified: false });
    m.take();
    const before = m.state;
    const from = m.events.length;
    m.send({ type: 'tool_outcome_unknown', callId: 's', cause: 'worker died', durationMs: 12 });
    m.send({ type: 'tool_finished', callId: 'r', result: { success: true, shouldContinue: true, output: 'ok' }, durationMs: 3 });
    const names = m.events.slice(from).map((e) => e.name);
    expect(names.filter((n) => n === 'toolEnded')).toHaveLength(2);
    expect(entriesOf(m, from, before).filter(Boolean)).toEqual([
      expect.objectContaining({ kind: 'call', tool: 'shell', callId: 's', arguments: { command: 'ls' }, decision: 'outcome_unknown', outcome: 'unknown', durationMs: 12, idempotencyKey: 'run-1/s' }),
    ]);
  });

  it('refuses a decision the audit log does not know, rather than write a line readers reject', () => {
    const m = new Machine().reply(call('w', 'write_file', { path: 'a.md', content: 'x' }));
    m.send({ type: 'decision', decision: { callId: 'w', decision: 'approve', approver: 'ana' }, via: 'update', verified: false });
    const event = m.events.find((e) => e.name === 'approvalDecided')!;
    const odd = { ...event, data: { ...event.data, decision: 'maybe' } } as unknown as typeof event;
    expect(() => auditEntryOf(odd, m.state, m.state)).toThrow(/expected one of/);
  });
});
