// A `prefix` must start the call it is decided on; otherwise the decision is refused and the call
// stays parked, so a validly signed "always" cannot remember commands the person never saw.
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decisionMessage, legacyDecisionText, signedText } from '../../../src/core/approvals/signatures/signed-message';
import { senderRefusal } from '../../../src/core/machine/sender-rules';
import { toStatus } from '../../../src/core/machine/run-status';
import { call, Machine, runState, T0 } from './state-factory';

const always = (m: Machine, callId: string, prefix: string) =>
  m.send({ type: 'decision', decision: { callId, decision: 'approve_always', approver: 'ana', prefix }, via: 'update', verified: false });

describe('decisionRefusal: prefix', () => {
  it('refuses a prefix the command does not start with, word by word, and takes one it does', () => {
    const m = new Machine().reply(call('a', 'shell', { command: 'npm test -- --watch' }));
    expect(m.call('a')!.stage.kind).toBe('person');
    always(m, 'a', 'npm t');
    always(m, 'a', 'rm -rf');
    expect(m.call('a')!.stage.kind).toBe('person');
    expect(toStatus(m.state).ignored.map((i) => i.reason)).toEqual([
      `"prefix" "npm t" is not a prefix of a's command "npm test -- --watch": choose the start of what this call runs`,
      expect.stringMatching(/^"prefix" "rm -rf" is not a prefix of a's command/),
    ]);
    always(m, 'a', 'npm  test');
    expect(m.call('a')!.stage.kind).toBe('run');
  });

  it('refuses a path prefix the path does not start with', () => {
    const m = new Machine().reply(call('a', 'write_file', { path: 'notes/a.md', content: '1' }));
    always(m, 'a', 'docs/');
    expect(m.call('a')!.stage.kind).toBe('person');
    always(m, 'a', 'notes/');
    expect(m.call('a')!.stage.kind).toBe('run');
  });
});

describe('executions from before the approval-channel-v2 patch (legacy)', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const approverKeys = { ana: publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex') };
  const signAsAna = (text: string) => sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64');
  const parked = () => new Machine(runState({ approverKeys })).reply(call('a', 'write_file', { path: 'notes/a.md', content: '1' }));
  const v1 = { callId: 'a', decision: 'approve' as const, approver: 'ana', signature: signAsAna(legacyDecisionText({ workflowId: 'run-1', callId: 'a', decision: 'approve', approver: 'ana' })) };

  it('replays the v1 decisions such an execution applied, while a new execution refuses them', () => {
    const fresh = parked().send({ type: 'decision', decision: v1, via: 'signal', verified: true });
    expect(fresh.call('a')!.stage.kind).toBe('person');
    expect(toStatus(fresh.state).ignored[0]!.reason).toMatch(/^old-format signature/);
    const old = parked().send({ type: 'decision', decision: v1, via: 'signal', verified: true, legacy: true });
    expect(old.call('a')!.stage.kind).toBe('run');
  });

  it('takes a v2 decision from a new client too, so a parked run from before the upgrade can still be decided', () => {
    const expiresAt = new Date(T0 + 600_000).toISOString();
    const message = decisionMessage({ namespace: 'default', workflowId: 'run-1', runId: 'r1' }, { path: 'notes/a.md', content: '1' }, { ...v1, expiresAt });
    const m = parked().send({ type: 'decision', decision: { ...v1, expiresAt, signature: signAsAna(signedText(message)) }, via: 'update', verified: true, legacy: true });
    expect(m.call('a')!.stage.kind).toBe('run');
  });

  it('takes answers and messages from anyone, as it did', () => {
    const state = runState({ input: { ...runState().input, approvers: ['ana'] } });
    const env = { now: T0, namespace: 'default', firstRunId: 'r1' };
    expect(senderRefusal(state, 'message', { text: 'hi', sender: 'bob' }, env)).toMatch(/^"bob" may not send follow-up messages/);
    expect(senderRefusal(state, 'message', { text: 'hi', sender: 'bob' }, { ...env, legacy: true })).toBeUndefined();
  });
});
