import { describe, expect, it } from 'vitest';
import type { LifecycleEvent, LifecycleEventName } from '../../../src/contract/lifecycle-event';
import { call, Machine, T0 } from './state-factory';

const ok = (output = 'done') => ({ success: true, shouldContinue: true, output });

/**
 * The fields each event's `data` carries on the wire, as docs/guides/lifecycle.md lists them for
 * other clients: the typed union must describe these, and the machine must keep sending them.
 */
const WIRE_FIELDS: Partial<Record<LifecycleEventName, string[]>> = {
  agentStarted: ['task', 'user'],
  iterationCompleted: ['completed', 'usage'],
  toolStarted: ['tool', 'callId', 'arguments', 'approval'],
  toolEnded: ['tool', 'callId', 'success', 'durationMs', 'arguments', 'approval', 'output'],
  approvalRequested: ['callId', 'tool', 'input', 'reason', 'context', 'requestedAt'],
  approvalDecided: ['callId', 'tool', 'decision', 'approver', 'reason', 'via'],
  agentEnded: ['status', 'usage', 'completion', 'iterations'],
};

/** A run that starts, parks a write for a person, runs it once approved, and completes. */
function approvedRun(): Machine {
  const m = new Machine();
  m.send({ type: 'started' });
  m.reply(call('w', 'write_file', { path: 'a.md', content: 'x' }));
  m.send({ type: 'decision', decision: { callId: 'w', decision: 'approve', reason: 'fine', approver: 'ana' }, via: 'update', verified: false });
  m.take();
  m.send({ type: 'tool_finished', callId: 'w', result: ok('written'), durationMs: 7 });
  m.reply(call('c', 'complete_task', { summary: 'all done', status: 'success' }));
  return m;
}

describe('lifecycle events', () => {
  it('carry, for each name, the data fields other clients read', () => {
    const m = approvedRun();
    const names = m.events.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(Object.keys(WIRE_FIELDS)));
    for (const event of m.events) {
      for (const field of WIRE_FIELDS[event.name] ?? []) expect(Object.keys(event.data), `${event.name}.${field}`).toContain(field);
    }
  });

  it('narrow by name to their own data', () => {
    const m = approvedRun();
    // Each branch reads fields only that event has: this compiles only while the union is typed by name.
    const seen = m.events.map((e: LifecycleEvent) => {
      switch (e.name) {
        case 'toolEnded':
          return `${e.data.tool}:${e.data.success}:${e.data.durationMs}`;
        case 'approvalDecided':
          return `${e.data.decision} by ${e.data.approver} via ${e.data.via}`;
        case 'agentEnded':
          return `${e.data.status}: ${e.data.completion?.summary}`;
        default:
          return undefined;
      }
    });
    expect(seen.filter((s) => s !== undefined)).toEqual(['approve by ana via update', 'write_file:true:7', 'completed: all done']);
  });

  it('are stamped with the run, the workflow time and a stable key', () => {
    const m = approvedRun();
    const decided = m.events.find((e) => e.name === 'approvalDecided')!;
    expect(decided).toMatchObject({ workflowId: 'run-1', runId: 'r1', agent: 'general', at: new Date(T0).toISOString(), key: 'run-1/0/1/approvalDecided/w' });
    // The checkpoint keeps the same events for the status query.
    expect(m.state.events.map((e) => e.key)).toEqual(m.events.map((e) => e.key).slice(-m.state.events.length));
  });
});
