// Issue 34: the spend budget as the pure machine sees it. Before each model call, what the run spent
// plus the worst case of that call (max_tokens at the output price) is held against the budget; a run
// that would cross it parks (waiting_budget), a raise lets it go on, and the wait times out as
// budget_exhausted. Hostile: a raise that lowers, a raise from someone who is not an approver, an
// unsigned raise under a registry, a raise of a run that ended.
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withAcceptedSignature } from '../../../src/core/approvals/signatures/accepted-signatures';
import { budgetMessage, signedText } from '../../../src/core/approvals/signatures/signed-message';
import { raiseBudgetRefusal } from '../../../src/core/machine/budget-rules';
import { budgetCrossing, childBudgetOf, usdOf } from '../../../src/core/machine/budget';
import { toStatus as runStatus } from '../../../src/core/machine/run-status';
import type { RunBudget } from '../../../src/core/machine/state/budget';
import { call, Machine, runState, T0 } from './state-factory';

// $10 / $100 per million tokens: a reply of the factory (100 in, 10 out) costs $0.002; a next call's
// worst case (1,000 tokens of output) $0.1.
const PRICE = { input: 10, output: 100, cacheWrite: 12.5, cacheRead: 1, requests: { web_search_requests: 0.01 } };
const budget = (over: Partial<RunBudget> = {}): RunBudget => ({ maxUsd: 0.105, price: PRICE, callTokens: 1000, ...over });
const SIGNING = { now: T0, namespace: 'default', firstRunId: 'r1' };
const read = (id: string) => call(id, 'read_file', { path: 'x' });
const ran = (m: Machine, id: string) => m.take() && m.send({ type: 'tool_finished', callId: id, result: { success: true, shouldContinue: true, output: 'ok' }, durationMs: 1 });

describe('budget', () => {
  it('prices usage as the cost estimate does: input, output, cache writes and reads, server tool requests', () => {
    const usd = usdOf({ inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadInputTokens: 1_000_000, cacheCreationInputTokens: 1_000_000, serverToolUse: { web_search_requests: 3 } }, PRICE);
    expect(usd).toBeCloseTo(10 + 100 + 12.5 + 1 + 0.03, 10);
  });

  it('counts the next call at its worst case: max_tokens of output, before it is made', () => {
    const usage = { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
    expect(budgetCrossing({ usage }, budget({ maxUsd: 0.1 }))).toBeUndefined();
    expect(budgetCrossing({ usage }, budget({ maxUsd: 0.0999 }))).toBe('usd');
    expect(budgetCrossing({ usage }, { callTokens: 1000, maxTokens: 999 })).toBe('tokens');
  });

  it('parks before the model call that would cross the budget, says so once, and shows what it spent', () => {
    const m = new Machine(runState({ budget: budget() }));
    expect(m.next().kind).toBe('call_model');
    m.reply(read('a'));
    ran(m, 'a');
    m.reply(read('b'));
    ran(m, 'b');
    m.reply(read('c'));
    ran(m, 'c');
    // 3 replies: $0.006 spent + $0.1 worst case > $0.105.
    expect(m.state.phase).toBe('waiting_budget');
    const step = m.next();
    expect(step).toEqual({ kind: 'wait', for: 'budget', until: T0 + 3600 * 1000 });
    expect(m.events.filter((e) => e.name === 'budgetExceeded')).toHaveLength(1);
    expect(m.events.find((e) => e.name === 'budgetExceeded')!.data).toMatchObject({ spentUsd: 0.006, maxUsd: 0.105, spentTokens: 330, limit: 'usd' });
    expect(runStatus(m.state).pendingBudget).toEqual({ spentUsd: 0.006, maxUsd: 0.105, spentTokens: 330, since: new Date(T0).toISOString(), workflowId: 'run-1' });
    m.take();
    expect(m.events.filter((e) => e.name === 'budgetExceeded')).toHaveLength(1);
  });

  it('goes on after a raise, and parks again at the new limit', () => {
    const m = new Machine(runState({ budget: budget({ maxUsd: 0.1 }) }));
    expect(m.state.phase).toBe('running');
    m.reply(read('a'));
    ran(m, 'a');
    expect(m.state.phase).toBe('waiting_budget');
    m.send({ type: 'budget_raised', maxUsd: 0.2, by: 'ana' });
    expect(m.state.phase).toBe('running');
    expect(m.next().kind).toBe('call_model');
    expect(runStatus(m.state).pendingBudget).toBeUndefined();
    expect(m.events.find((e) => e.name === 'budgetRaised')!.data).toMatchObject({ maxUsd: 0.2, by: 'ana' });
  });

  it('ends as budget_exhausted when no one raises it within approvalTimeoutSeconds (a partial result)', () => {
    const m = new Machine(runState({ budget: budget({ maxUsd: 0.1 }) }));
    m.reply(read('a'));
    ran(m, 'a');
    m.now = T0 + 3599 * 1000;
    m.send({ type: 'time_passed' });
    expect(m.state.phase).toBe('waiting_budget');
    m.now = T0 + 3600 * 1000;
    m.send({ type: 'time_passed' });
    expect(m.state.outcome).toEqual({ kind: 'budget_exhausted' });
    expect(m.state.phase).toBe('budget_exhausted');
    expect(m.next().kind).toBe('finish');
    expect(m.events.at(-1)).toMatchObject({ name: 'agentEnded', data: { status: 'budget_exhausted' } });
  });

  it('a run without a budget never parks, whatever it spends', () => {
    const m = new Machine();
    for (const id of ['a', 'b', 'c', 'd']) {
      m.reply(read(id));
      ran(m, id);
    }
    expect(m.state.phase).toBe('running');
    expect(runStatus(m.state).pendingBudget).toBeUndefined();
    expect(runStatus(m.state).budget).toBeUndefined();
  });

  it("gives a sub-agent what is left of the budget, shared by the turn's delegations, so the tree cannot spend past it", () => {
    const delegate = (id: string) => call(id, 'delegate_task', { agent: 'general', task: 't' });
    const m = new Machine(runState({ budget: budget({ maxUsd: 1, maxTokens: 10_000 }), agent: { ...runState().agent, subAgents: ['general'] } }));
    m.reply(delegate('d1'), delegate('d2'));
    expect(m.take()).toMatchObject({ kind: 'run_tools', calls: [{ id: 'd1', lane: 'child' }, { id: 'd2', lane: 'child' }] });
    // Spent: $0.002 and 110 tokens; each of the two children gets half of the rest.
    expect(childBudgetOf(m.state)).toEqual({ maxUsd: (1 - 0.002) / 2, maxTokens: Math.floor((10_000 - 110) / 2) });
    expect(childBudgetOf(runState())).toBeUndefined();
  });

  describe('raiseBudget refusals', () => {
    const parked = (over: Parameters<typeof runState>[0] = {}) => runState({ budget: budget({ parkedAt: new Date(T0).toISOString() }), ...over });

    it("refuses someone who is not one of the run's approvers, and a raise that names no approver", () => {
      const state = parked({ input: { ...runState().input, approvers: ['ana'] } });
      expect(raiseBudgetRefusal(state, { maxUsd: 5, approver: 'mallory' }, SIGNING)).toMatch(/"mallory" may not raise this run's budget \(approvers: ana\)/);
      expect(raiseBudgetRefusal(state, { maxUsd: 5 }, SIGNING)).toMatch(/without "approver" may not raise/);
      expect(raiseBudgetRefusal(state, { maxUsd: 5, approver: 'ana' }, SIGNING)).toBeUndefined();
    });

    it('refuses an unsigned raise, and one with a forged signature, when the worker has an approver registry', () => {
      const state = parked({ approverKeys: { ana: 'a'.repeat(64) } });
      expect(raiseBudgetRefusal(state, { maxUsd: 5, approver: 'ana' }, SIGNING)).toMatch(/unsigned budget/);
      const expiresAt = new Date(T0 + 60_000).toISOString();
      expect(raiseBudgetRefusal(state, { maxUsd: 5, approver: 'ana', expiresAt, signature: 'A'.repeat(88) }, SIGNING)).toMatch(/bad signature for ana/);
    });

    it('refuses a signed raise the run accepted before, by name and before its limits, only in executions with raisesOnce', () => {
      const { privateKey, publicKey } = generateKeyPairSync('ed25519');
      const approverKeys = { ana: publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex') };
      const expiresAt = new Date(T0 + 600_000).toISOString();
      const message = budgetMessage({ namespace: 'default', workflowId: 'run-1', runId: 'r1' }, { approver: 'ana', maxUsd: 5, expiresAt });
      const raise = { maxUsd: 5, approver: 'ana', expiresAt, signature: sign(null, Buffer.from(signedText(message), 'utf8'), privateKey).toString('base64') };
      const fresh = parked({ approverKeys, input: { ...runState().input, approvers: ['ana'] } });
      const once = { ...SIGNING, signedOnce: true, raisesOnce: true };
      expect(raiseBudgetRefusal(fresh, raise, once)).toBeUndefined();
      const seen = { ...fresh, acceptedSignatures: withAcceptedSignature([], raise, new Date(T0).toISOString(), T0, 10) };
      expect(raiseBudgetRefusal(seen, raise, once)).toBe(`this signed message was already accepted at ${new Date(T0).toISOString()}; a signature is accepted once: sign a new one`);
      // An execution from before patch accountable-budget-raises checks what it always did.
      expect(raiseBudgetRefusal(seen, raise, { ...once, raisesOnce: false })).toBeUndefined();
    });

    it('refuses a raise that does not raise, a limit the budget does not have, and a run that ended or has no budget', () => {
      expect(raiseBudgetRefusal(parked(), { maxUsd: 0.1 }, SIGNING)).toMatch(/not above the current 0.105/);
      expect(raiseBudgetRefusal(parked(), { maxTokens: 10 }, SIGNING)).toMatch(/no token limit/);
      expect(raiseBudgetRefusal(runState(), { maxUsd: 5 }, SIGNING)).toMatch(/no budget to raise/);
      expect(raiseBudgetRefusal(parked({ outcome: { kind: 'completed' } }), { maxUsd: 5 }, SIGNING)).toMatch(/has ended/);
    });

    it('the loop asks again: a lowering raise that reaches the machine is recorded as ignored and changes nothing', () => {
      const m = new Machine(parked());
      m.send({ type: 'budget_raised', maxUsd: 0.01, by: 'ana' });
      expect(m.state.budget!.maxUsd).toBe(0.105);
      expect(m.state.ignored.at(-1)).toMatchObject({ kind: 'raiseBudget' });
    });
  });
});
