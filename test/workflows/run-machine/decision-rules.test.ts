// A `prefix` must start the call it is decided on; otherwise the decision is refused and the call
// stays parked, so a validly signed "always" cannot remember commands the person never saw.
import { describe, expect, it } from 'vitest';
import { toStatus } from '../../../src/workflows/run-machine/run-status';
import { call, Machine } from './state-factory';

const always = (m: Machine, callId: string, prefix: string) =>
  m.send({ type: 'decision', decision: { callId, decision: 'approve_always', approver: 'ana', prefix }, via: 'update', verified: false });

describe('decisionRefusal: prefix', () => {
  it('refuses a prefix the command does not start with, word by word, and takes one it does', () => {
    const m = new Machine().reply(call('a', 'shell', { command: 'npm test -- --watch' }));
    expect(m.call('a')!.verdict.kind).toBe('pending');
    always(m, 'a', 'npm t');
    always(m, 'a', 'rm -rf');
    expect(m.call('a')!.verdict.kind).toBe('pending');
    expect(toStatus(m.state).ignored.map((i) => i.reason)).toEqual([
      `"prefix" "npm t" is not a prefix of a's command "npm test -- --watch": choose the start of what this call runs`,
      expect.stringMatching(/^"prefix" "rm -rf" is not a prefix of a's command/),
    ]);
    always(m, 'a', 'npm  test');
    expect(m.call('a')!.verdict.kind).toBe('run');
  });

  it('refuses a path prefix the path does not start with', () => {
    const m = new Machine().reply(call('a', 'write_file', { path: 'notes/a.md', content: '1' }));
    always(m, 'a', 'docs/');
    expect(m.call('a')!.verdict.kind).toBe('pending');
    always(m, 'a', 'notes/');
    expect(m.call('a')!.verdict.kind).toBe('run');
  });
});
