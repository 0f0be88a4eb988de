// Issue 32, the run's side, attacked as the issue's insider would (namespace access, no key), on a real
// worker with an approver registry: `boss` delegates to `guarded`, both decided by alice.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { builtinAgents } from '../../../src/runtime/agents/builtin-agents';
import { WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { createApproverKey, signWithApproverKey } from '../../../src/client/approver-keys';
import { describeRunIdentity } from '../../../src/client/sign-messages';
import { childStatusSignal, decideApprovalsUpdate, decideApprovalUpdate, statusQuery } from '../../../src/contract/agent-run-api';
import { argumentsHash, decisionMessage, signedText, type RunIdentity } from '../../../src/core/approvals/signatures/signed-message';
import type { ApprovalDecision } from '../../../src/contract/approval-decision';
import type { ChildWaiting } from '../../../src/contract/run-records';
import { approveAllParked } from '../../../src/client/decide-all';
import { agentctl } from '../../client/agentctl-process';
import { waitFor, waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';

const general = builtinAgents.find((a) => a.name === 'general')!;
const guarded: AgentDefinitionInput = { ...general, name: 'guarded', description: 'Writes files.', modelTier: 'fast', approvers: ['alice'] };
const boss: AgentDefinitionInput = { ...general, name: 'boss', description: 'Delegates.', subAgents: ['guarded'], approvers: ['alice'] };
const done = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));
const write = (file: string, id: string) => reply(toolCall('write_file', { path: file, content: 'x' }, id));

/** A `childWaiting` approval entry as a run reports it, naming `workflowId` as the run that waits. */
const entry = (workflowId: string, callId: string, input: unknown) => ({
  callId,
  tool: 'write_file',
  input,
  requestedAt: new Date().toISOString(),
  iteration: 1,
  reason: 'write_file writes files',
  workflowId,
  approvers: ['alice'],
});

describe('issue 32: the approval channel, the run side', () => {
  const bed = useAgentTestbed({ agents: [boss, guarded, general] });
  let dir: string;
  let keys: string;
  let registryFile: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'approval-ii-'));
    keys = path.join(dir, 'keys');
    registryFile = path.join(dir, 'approvers.json');
    const entries = ['alice', 'bob'].map((name) => createApproverKey(name, { dir: keys }).registryEntry);
    await writeFile(registryFile, JSON.stringify(Object.assign({}, ...entries)));
  });

  /** `name`'s signature over a decision on `args`, as a console that signs what the run reports now would make it. */
  const signs = (name: string, run: RunIdentity, args: unknown, fields: { callId: string; decision: ApprovalDecision['decision']; arguments?: Record<string, unknown> }): ApprovalDecision => {
    const expiresAt = new Date(Date.now() + 600_000).toISOString();
    const signature = signWithApproverKey(name, signedText(decisionMessage(run, args, { ...fields, approver: name, expiresAt })), { dir: keys })!;
    return { ...fields, approver: name, expiresAt, signature };
  };
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('finding 2: a forged childStatus is refused and recorded; the approver cannot reach the victim run through boss', async () => {
    const [task, subTask, victimTask] = [uniqueId('boss'), uniqueId('boss-leaf'), uniqueId('victim')];
    bed.fake.script(task, [reply(toolCall('delegate_task', { agent: 'guarded', task: subTask }, 'toolu_delegate')), done('boss done')]);
    bed.fake.script(subTask, [write('notes.txt', 'toolu_child'), done('leaf done')]);
    bed.fake.script(victimTask, [write('PWNED-victim.txt', 'toolu_victim'), done('victim done')]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registryFile } }, async ({ start, taskQueue }) => {
      const victim = await start({ agent: 'guarded', task: victimTask });
      const root = await start({ agent: 'boss', task });
      await waitForApprovals(victim, 1, 30_000);
      const { pendingApprovals } = await waitForApprovals(root, 1, 30_000);
      const childId = pendingApprovals[0]!.workflowId;
      expect(childId).toBe(`${root.workflowId}/sub-toolu_delegate`);
      const shownAs = { path: 'notes-2.txt', content: 'x' };
      // The insider, as the victim (not a child of boss), and as boss's real child listing the victim's call.
      const forged: { workflowId: string; waiting: ChildWaiting }[] = [
        { workflowId: victim.workflowId, waiting: { approvals: [entry(victim.workflowId, 'toolu_victim', shownAs)], questions: [] } },
        { workflowId: childId, waiting: { approvals: [pendingApprovals[0]!, entry(victim.workflowId, 'toolu_victim', shownAs)], questions: [] } },
      ];
      for (const payload of forged) await root.signal(childStatusSignal, payload);
      const ignored = await waitFor(async () => {
        const s = await root.query(statusQuery);
        return s.ignored.filter((i) => i.kind === 'childStatus').length >= 2 ? s.ignored : undefined;
      }, 'boss to record both forged reports');
      expect(ignored.map((i) => i.reason)).toEqual([
        expect.stringMatching(new RegExp(`^childStatus from ${escape(victim.workflowId)}, which is not a sub-agent run this run started`)),
        expect.stringMatching(new RegExp(`^childStatus from ${escape(childId)} lists a call of ${escape(victim.workflowId)}, which is neither that run nor below it`)),
      ]);
      const status = await root.query(statusQuery);
      expect(status.pendingApprovals.map((p) => [p.workflowId, p.callId])).toEqual([[childId, 'toolu_child']]);

      // The approver decides through boss what the card would show: nothing reaches the victim.
      const env = { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue, AGENT_KEYS_DIR: keys };
      expect((await agentctl(['approve', root.workflowId, 'toolu_victim', '--approver', 'alice'], env)).code).not.toBe(0);
      const victimStatus = await victim.query(statusQuery);
      expect(victimStatus.phase).toBe('waiting_approval');
      expect(victimStatus.decisions).toEqual([]);

      // The approver's legitimate flow: the real child's call, approved at the root.
      expect(await agentctl(['approve', root.workflowId, 'toolu_child', '--approver', 'alice'], env)).toMatchObject({ code: 0 });
      expect((await root.result()).completion?.summary).toBe('boss done');
      await cancel(victim);
    });
  }, 120_000);

  it('finding 3: a decision on arguments the person no longer sees is refused; a signed one must say what they saw', async () => {
    const task = uniqueId('stale-card');
    const original = { command: 'ls -la' };
    const evil = { command: 'eval "touch PWNED-stale.txt"' };
    bed.fake.script(task, [reply(toolCall('shell', original, 'toolu_ls')), done('done')]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registryFile } }, async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task, approvers: ['alice', 'bob'] });
      await waitForApprovals(handle);
      const run = await describeRunIdentity(handle);
      const shown = argumentsHash(original);
      // Bob edits the call into an eval: the edit is not understood, so it parks again under the same id.
      await handle.executeUpdate(decideApprovalUpdate, { args: [{ ...signs('bob', run, original, { callId: 'toolu_ls', decision: 'approve', arguments: evil }), argumentsHash: shown }] });
      const parked = await waitForApprovals(handle);
      expect(parked.pendingApprovals[0]!.input).toEqual(evil);
      // Alice's card still showed `ls -la`; her console signs what the run reports now, with the hash she saw.
      const stale = { ...signs('alice', run, evil, { callId: 'toolu_ls', decision: 'approve' }), argumentsHash: shown };
      expect(await refusal(handle.executeUpdate(decideApprovalUpdate, { args: [stale] }))).toMatch(/^the arguments of toolu_ls changed since they were shown/);
      expect(await refusal(handle.executeUpdate(decideApprovalsUpdate, { args: [{ decisions: [{ ...stale, workflowId: handle.workflowId }] }] }))).toMatch(
        /^decision 1 of 1 \(approve toolu_ls\) is refused: the arguments of toolu_ls changed since they were shown.*nothing was applied$/,
      );
      // Without the hash, a signed decision is refused: it does not say what the person saw.
      expect(await refusal(handle.executeUpdate(decideApprovalUpdate, { args: [signs('alice', run, evil, { callId: 'toolu_ls', decision: 'reject' })] }))).toMatch(
        /^signed decision on toolu_ls carries no argumentsHash/,
      );
      expect((await handle.query(statusQuery)).phase).toBe('waiting_approval');
      expect(existsSync(path.join(workspace, 'PWNED-stale.txt'))).toBe(false);
      // What alice sees now, she may reject.
      await handle.executeUpdate(decideApprovalUpdate, { args: [{ ...signs('alice', run, evil, { callId: 'toolu_ls', decision: 'reject' }), argumentsHash: argumentsHash(evil) }] });
      expect((await handle.result()).status).toBe('completed');
      expect(existsSync(path.join(workspace, 'PWNED-stale.txt'))).toBe(false);
    });
  }, 120_000);

  it('finding 6: with a registry, a run input cannot loosen its agent: refused at start, naming the rule', async () => {
    const task = uniqueId('ceiling');
    bed.fake.script(task, [reply(toolCall('shell', { command: 'echo owned > PWNED-ceiling.txt' }, 'toolu_sh')), done('done')]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registryFile } }, async ({ start, workspace }) => {
      const loose = await start({ agent: 'guarded', task, toolApproval: { alwaysApproved: [{ tool: 'shell', writes: true }] } });
      const failure = await loose.result().then(() => undefined, (e: unknown) => e as WorkflowFailedError);
      expect(failure).toBeInstanceOf(WorkflowFailedError);
      expect(failure!.cause?.message).toMatch(/^Refused to run: toolApproval\.alwaysApproved\[0\] \(\{"tool":"shell","writes":true\}\) would let calls of agent guarded run that nobody signs/);
      expect(existsSync(path.join(workspace, 'PWNED-ceiling.txt'))).toBe(false);
      const scopes = await start({ agent: 'guarded', task: uniqueId('ceiling-scope'), toolApproval: { scopes: { execute: 'allow' } } });
      expect((await scopes.result().then(() => undefined, (e: unknown) => e as WorkflowFailedError))?.cause?.message).toMatch(/^Refused to run: toolApproval\.scopes\.execute "allow" is looser than agent guarded's "ask"/);
      const mode = await start({ agent: 'guarded', task: uniqueId('ceiling-mode'), mode: 'acceptEdits' });
      expect((await mode.result().then(() => undefined, (e: unknown) => e as WorkflowFailedError))?.cause?.message).toMatch(/^Refused to run: mode "acceptEdits" is looser than agent guarded's "default"/);
      // Tightening is the run's to choose: it asks alice for the shell call as before.
      const tight = await start({ agent: 'guarded', task, toolApproval: { requiresApproval: ['read_file'], alwaysRejected: ['search_files'] } });
      expect((await waitForApprovals(tight)).pendingApprovals[0]!.callId).toBe('toolu_sh');
      await cancel(tight);
    });
  }, 120_000);

  it('must-have 7: a decision naming its run reaches that run, when two sub-agents park the same call id', async () => {
    const [task, subA, subB] = [uniqueId('same-id'), uniqueId('same-id-a'), uniqueId('same-id-b')];
    const delegate = (sub: string, id: string) => toolCall('delegate_task', { agent: 'guarded', task: sub }, id);
    bed.fake.script(task, [reply(delegate(subA, 'toolu_a'), delegate(subB, 'toolu_b')), done('boss done')]);
    bed.fake.script(subA, [write('a.txt', 'toolu_same'), done('a done')]);
    bed.fake.script(subB, [write('b.txt', 'toolu_same'), done('b done')]);
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      const root = await start({ agent: 'boss', task });
      const [childA, childB] = [`${root.workflowId}/sub-toolu_a`, `${root.workflowId}/sub-toolu_b`];
      const parked = await waitForApprovals(root, 2, 30_000);
      expect(parked.pendingApprovals.map((p) => [p.workflowId, p.callId]).sort()).toEqual([[childA, 'toolu_same'], [childB, 'toolu_same']]);
      const outcome = await root.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_same', workflowId: childB, decision: 'reject', approver: 'alice', reason: 'not b' }] });
      expect(outcome.message).toBe(`reject for toolu_same applied by ${childB}, the sub-agent run that waited for it: reject applied to toolu_same`);
      const b = client.workflow.getHandle(childB);
      const decided = await waitFor(async () => {
        const s = await b.query(statusQuery);
        return s.decisions.length > 0 ? s.decisions : undefined;
      }, 'the decision to reach the second sub-agent');
      expect(decided).toEqual([expect.objectContaining({ callId: 'toolu_same', decision: 'reject', reason: 'not b' })]);
      const a = await client.workflow.getHandle(childA).query(statusQuery);
      expect(a.decisions).toEqual([]);
      expect(a.phase).toBe('waiting_approval');
      // A run the tree does not have is refused, not sent to the first run with that call id.
      expect(await refusal(root.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_same', workflowId: `${root.workflowId}/sub-nobody`, decision: 'approve', approver: 'alice' }] }))).toMatch(
        /^no call toolu_same of .*\/sub-nobody waits for a decision in this run's tree/,
      );
      await root.executeUpdate(decideApprovalsUpdate, { args: [{ decisions: [{ callId: 'toolu_same', workflowId: childA, decision: 'approve', approver: 'alice' }] }] });
      expect((await root.result()).completion?.summary).toBe('boss done');
    });
  }, 120_000);

  it('must-have 7: approve --all decides a call id two sub-agents parked once for each of them', async () => {
    const [task, subA, subB] = [uniqueId('same-id-all'), uniqueId('same-id-all-a'), uniqueId('same-id-all-b')];
    const delegate = (sub: string, id: string) => toolCall('delegate_task', { agent: 'guarded', task: sub }, id);
    bed.fake.script(task, [reply(delegate(subA, 'toolu_a'), delegate(subB, 'toolu_b')), done('boss done')]);
    bed.fake.script(subA, [write('all-a.txt', 'toolu_same'), done('a done')]);
    bed.fake.script(subB, [write('all-b.txt', 'toolu_same'), done('b done')]);
    await withAgentWorker(bed.harness(), async ({ start, workspace }) => {
      const root = await start({ agent: 'boss', task });
      await waitForApprovals(root, 2, 30_000);
      const { callIds } = await approveAllParked(root, { approver: 'alice' });
      expect(callIds).toEqual(['toolu_same', 'toolu_same']);
      expect((await root.result()).completion?.summary).toBe('boss done');
      for (const file of ['all-a.txt', 'all-b.txt']) expect(existsSync(path.join(workspace, file))).toBe(true);
    });
  }, 120_000);

  // A guard, not a test seen failing: the run already decided only the calls a batch names; the issue's
  // "approve all" posted {} and the console's server filled in every parked call (32b's side).
  it('finding 4, the run side: an approve-all list decides exactly the calls it shows, all or none', async () => {
    const task = uniqueId('approve-all-list');
    const [a, b] = [{ path: 'a.txt', content: 'x' }, { path: 'PWNED-toctou.txt', content: 'x' }];
    bed.fake.script(task, [reply(toolCall('write_file', a, 'toolu_a')), reply(toolCall('write_file', b, 'toolu_b')), done('done')]);
    await withAgentWorker(bed.harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task, approvers: ['alice', 'bob'] });
      await waitForApprovals(handle);
      const shown = [{ workflowId: handle.workflowId, callId: 'toolu_a', argumentsHash: argumentsHash(a) }];
      // Bob decides the call alice was shown; the model parks another one.
      await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_a', decision: 'approve', approver: 'bob', argumentsHash: argumentsHash(a) }] });
      await waitFor(async () => ((await handle.query(statusQuery)).pendingApprovals.some((p) => p.callId === 'toolu_b') ? true : undefined), 'the second call to park');
      const decisions = shown.map((call) => ({ ...call, decision: 'approve' as const, approver: 'alice' }));
      expect(await refusal(handle.executeUpdate(decideApprovalsUpdate, { args: [{ decisions }] }))).toMatch(/^decision 1 of 1 \(approve toolu_a\) is refused: call toolu_a was already decided.*nothing was applied$/);
      const status = await handle.query(statusQuery);
      expect(status.pendingApprovals.map((p) => p.callId)).toEqual(['toolu_b']);
      expect(existsSync(path.join(workspace, 'PWNED-toctou.txt'))).toBe(false);
      await handle.executeUpdate(decideApprovalsUpdate, { args: [{ decisions: [{ workflowId: handle.workflowId, callId: 'toolu_b', argumentsHash: argumentsHash(b), decision: 'reject', approver: 'alice' }] }] });
      expect((await handle.result()).status).toBe('completed');
    });
  }, 120_000);
});

/** The reason an update was refused with. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  return (error as WorkflowUpdateFailedError).cause?.message ?? '';
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const cancel = (handle: WorkflowHandle) => handle.terminate('test over').catch(() => undefined);
