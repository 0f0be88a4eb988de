// Issue 34, a raise is accountable: an approver's `raiseBudget` writes an audit line (who, from what to
// what, signed or not) before the run goes on, and `agentctl audit verify` and `audit prove` still
// pass on the log. With an approver registry a raise must be signed by an approver, and a signed raise
// is accepted once: the insider who lifts it from the history and sends it again is refused by name.
// Real server and worker, the Messages API faked at the HTTP level.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { createApproverKey, KEYS_DIR_ENV, signWithApproverKey } from '../../src/client/approver-keys';
import { describeRunIdentity } from '../../src/client/sign-messages';
import { raiseBudget } from '../../src/client/raise-budget';
import { raiseBudgetSignal, raiseBudgetUpdate, statusQuery } from '../../src/contract/agent-run-api';
import type { RaiseBudget } from '../../src/contract/budget';
import { budgetMessage, signedText } from '../../src/core/approvals/signatures/signed-message';
import { agentctl } from '../client/agentctl-process';
import { exportHistories } from '../runtime/audit/prove/proof-fixtures';
import { waitFor, waitForPhase, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { costly, spender } from '../support/budget-agents';
import { uniqueId } from '../support/temporal';
import { complete } from './approval-test-kit';

const NO_SERVER = { TEMPORAL_ADDRESS: '127.0.0.1:1' };
const REPLAYED = /^this signed message was already accepted at \d{4}-\d\d-\d\dT[\d:.]+Z; a signature is accepted once: sign a new one/;
const linesOf = async (file: string) => (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  return (error as WorkflowUpdateFailedError).cause?.message ?? '';
}

/** What the insider reads: every accepted `raiseBudget` update in the run's history, its payload decoded. */
async function liftedRaises(handle: WorkflowHandle): Promise<RaiseBudget[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).flatMap((event) => {
    const request = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest;
    if (request?.input?.name !== raiseBudgetUpdate.name) return [];
    return (request.input.args?.payloads ?? []).map((p) => defaultPayloadConverter.fromPayload<RaiseBudget>(p));
  });
}

describe('a budget raise on the audit log', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, spender] });
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'budget-raise-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes who raised it, from what to what and unsigned, before the answer and the next model call; verify and prove still pass', async () => {
    const task = uniqueId('raise-audit');
    const auditLog = path.join(dir, 'raise-audit.log');
    bed.fake.script(task, [costly(), costly(), complete()]);
    let workflowId = '';
    let histories: string[] = [];
    await withAgentWorker({ ...bed.harness(), auditLog }, async ({ start, client }) => {
      const handle = await start({ agent: 'spender', task, budget: { maxUsd: 0.05, maxTokens: 1_000_000 } });
      workflowId = handle.workflowId;
      await waitForPhase(handle, 'waiting_budget');
      expect(bed.fake.requestsFor(task)).toHaveLength(2);
      expect((await raiseBudget(handle, { maxUsd: 1, approver: 'ana' })).message).toContain('budget raised to $1');
      // On disk when the raise is answered.
      const raised = (await linesOf(auditLog)).filter((r) => r.run === workflowId && r.kind === 'budget');
      expect(raised).toEqual([
        expect.objectContaining({
          kind: 'budget',
          tool: 'raiseBudget',
          approver: 'ana',
          verified: false,
          via: 'update',
          previousBudget: { maxUsd: 0.05, maxTokens: 1_000_000 },
          budget: { maxUsd: 1, maxTokens: 1_000_000 },
          reason: expect.stringMatching(/^budget raised from \$0\.05 and 1000000 tokens to \$1 and 1000000 tokens by ana \(unsigned: the worker has no approver registry\); spent \$0\.04 and 24000 tokens$/),
        }),
      ]);
      expect((await handle.result()).status).toBe('completed');
      expect(bed.fake.requestsFor(task)).toHaveLength(3);
      histories = await exportHistories(client, workflowId, dir);
    });
    const verified = await agentctl(['audit', 'verify', auditLog], NO_SERVER);
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    const proved = await agentctl(['audit', 'prove', workflowId, ...histories.flatMap((h) => ['--history', h]), '--audit-log', auditLog, '--json'], NO_SERVER);
    expect(proved.stderr).toBe('');
    expect(JSON.parse(proved.stdout)).toMatchObject({ ok: true, problems: [] });
    expect(proved.code).toBe(0);
  }, 180_000);

  it('with an approver registry: a signed raise from the approver goes on; its replay, an unsigned raise and a non-approver\'s signed raise are refused, by name', async () => {
    const keys = path.join(dir, 'keys');
    const registry = path.join(dir, 'approvers.json');
    await writeFile(registry, JSON.stringify({ ...createApproverKey('ana', { dir: keys }).registryEntry, ...createApproverKey('mallory', { dir: keys }).registryEntry }));
    const savedKeys = process.env[KEYS_DIR_ENV];
    process.env[KEYS_DIR_ENV] = keys;
    const task = uniqueId('raise-signed');
    const auditLog = path.join(dir, 'raise-signed.log');
    // Parks after two calls ($0.04 of $0.05); raised to $0.07 it makes one more ($0.06) and parks again.
    bed.fake.script(task, [costly(), costly(), costly(), complete()]);
    try {
      await withAgentWorker({ ...bed.harness(), auditLog, env: { AGENT_APPROVERS_FILE: registry } }, async ({ start }) => {
        const handle = await start({ agent: 'spender', task, budget: { maxUsd: 0.05 } });
        await waitForPhase(handle, 'waiting_budget');
        const run = await describeRunIdentity(handle);
        const signedBy = (approver: string, maxUsd: number): RaiseBudget => {
          const expiresAt = new Date(Date.now() + 600_000).toISOString();
          return { maxUsd, approver, expiresAt, signature: signWithApproverKey(approver, signedText(budgetMessage(run, { approver, maxUsd, expiresAt })), { dir: keys })! };
        };

        expect(await refusal(handle.executeUpdate(raiseBudgetUpdate, { args: [{ maxUsd: 1, approver: 'ana' }] }))).toMatch(/^unsigned budget: this worker requires signatures/);
        expect(await refusal(handle.executeUpdate(raiseBudgetUpdate, { args: [signedBy('mallory', 1)] }))).toMatch(/"mallory" may not raise this run's budget \(approvers: ana\)/);
        expect(bed.fake.requestsFor(task)).toHaveLength(2);

        expect((await raiseBudget(handle, { maxUsd: 0.07, approver: 'ana' })).message).toBe('budget raised to $0.07');
        await waitFor(async () => ((await handle.query(statusQuery)).pendingBudget?.maxUsd === 0.07 ? true : undefined), 'the run parked again at $0.07');
        expect(bed.fake.requestsFor(task)).toHaveLength(3);

        // The insider's replay of ana's signed raise, by update and by signal.
        const [lifted] = await liftedRaises(handle);
        expect(lifted).toMatchObject({ approver: 'ana', maxUsd: 0.07, signature: expect.any(String) });
        expect(await refusal(handle.executeUpdate(raiseBudgetUpdate, { args: [lifted!] }))).toMatch(REPLAYED);
        await handle.signal(raiseBudgetSignal, lifted!);
        const ignored = await waitFor(async () => (await handle.query(statusQuery)).ignored.find((i) => i.kind === 'raiseBudget'), 'the replayed signal ignored');
        expect(ignored.reason).toMatch(REPLAYED);
        expect((await handle.query(statusQuery)).phase).toBe('waiting_budget');

        expect((await raiseBudget(handle, { maxUsd: 1, approver: 'ana' })).message).toBe('budget raised to $1');
        expect((await handle.result()).status).toBe('completed');
        expect(bed.fake.requestsFor(task)).toHaveLength(4);
        const raised = (await linesOf(auditLog)).filter((r) => r.run === handle.workflowId && r.kind === 'budget');
        expect(raised.map((r) => [r.approver, r.verified, r.previousBudget, r.budget])).toEqual([
          ['ana', true, { maxUsd: 0.05 }, { maxUsd: 0.07 }],
          ['ana', true, { maxUsd: 0.07 }, { maxUsd: 1 }],
        ]);
      });
    } finally {
      if (savedKeys === undefined) delete process.env[KEYS_DIR_ENV];
      else process.env[KEYS_DIR_ENV] = savedKeys;
    }
    const verified = await agentctl(['audit', 'verify', auditLog], NO_SERVER);
    expect(verified.code).toBe(0);
  }, 180_000);
});
