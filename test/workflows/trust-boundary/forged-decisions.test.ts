// Issue 19's forged and replayed decisions, tried as someone with namespace access would: through a
// plain Temporal client (handles and the exported definitions), against a real worker with an
// approver registry. Alice's key is real; every attack reuses something she really signed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WorkflowFailedError, WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalDecision } from '../../../src/contract/approval-decision';
import { argumentsHash, decisionMessage, legacyDecisionText, signedText, type DecisionFields, type RunIdentity } from '../../../src/core/approvals/signatures/signed-message';
import { createApproverKey, signWithApproverKey } from '../../../src/client/approver-keys';
import { InvalidRunRequestError } from '../../../src/client/errors';
import { AGENT_RUN_WORKFLOW_TYPE } from '../../../src/contract/agent-run-api';
import { startRun } from '../../../src/client/start-run';
import { describeRunIdentity } from '../../../src/client/sign-messages';
import { approvalSignal, decideApprovalUpdate, statusQuery } from '../../../src/contract/agent-run-api';
import { agentctl } from '../../client/agentctl-process';
import { waitFor, waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';

const writeArgs = (file: string) => ({ path: file, content: 'x' });
const write = (file: string) => reply(toolCall('write_file', writeArgs(file)));
const done = reply(toolCall('complete_task', { summary: 'done', status: 'success' }));
const inTenMinutes = () => new Date(Date.now() + 600_000).toISOString();

/** The reason an update was refused with. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  return (error as WorkflowUpdateFailedError).cause?.message ?? '';
}

describe('forged and replayed decisions (issue 19)', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;
  let dir: string;
  let keys: string;
  let registryFile: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'forged-'));
    keys = path.join(dir, 'keys');
    registryFile = path.join(dir, 'approvers.json');
    await writeFile(registryFile, JSON.stringify(createApproverKey('alice', { dir: keys }).registryEntry));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** What alice's key signs over `fields` for the call with `args` in `run`: a real signature of hers. */
  const aliceSigns = (run: RunIdentity, args: unknown, fields: Omit<DecisionFields, 'approver'>): ApprovalDecision => {
    const signature = signWithApproverKey('alice', signedText(decisionMessage(run, args, { ...fields, approver: 'alice' })), { dir: keys })!;
    // With the hash of the arguments she signed over, as agentctl and the console send it (issue 32).
    return { ...(fields as ApprovalDecision), approver: 'alice', signature, argumentsHash: argumentsHash(args) };
  };
  const harness = () => ({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registryFile } });
  const stillParked = async (handle: WorkflowHandle) => expect((await handle.query(statusQuery)).phase).toBe('waiting_approval');

  it('refuses a workflow id with a newline or a bidi control at start: startRun, and the workflow itself for a plain client', async () => {
    await withAgentWorker(harness(), async ({ client, taskQueue }) => {
      const crafted = `${uniqueId('victim')}\ntoolu_0_0\napprove_always\nalice\ntool`;
      const input = { agent: 'general', task: 'anything' };
      await expect(startRun(client, input, { taskQueue, workflowId: crafted })).rejects.toThrow(InvalidRunRequestError);
      await expect(startRun(client, input, { taskQueue, workflowId: `${uniqueId('docs')}/\u202Edm.hs` })).rejects.toThrow(/U\+202E/);
      // A plain Temporal client skips startRun: the run fails at its first workflow task.
      const handle = await client.workflow.start(AGENT_RUN_WORKFLOW_TYPE, { taskQueue, workflowId: crafted, args: [input] });
      const error = await handle.result().then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(WorkflowFailedError);
      expect((error as WorkflowFailedError).cause?.message).toMatch(/^Refused to run: workflow id .* contains the control or formatting character U\+000A/);
    });
  });

  it("refuses alice's reject of one run sent to another run as her approve_always (the newline-injection forgery)", async () => {
    const decoyTask = uniqueId('decoy');
    const victimTask = uniqueId('victim');
    fake.script(decoyTask, [write('decoy.txt'), done]);
    fake.script(victimTask, [write('victim.txt'), done]);
    await withAgentWorker(harness(), async ({ start }) => {
      const decoy = await start({ agent: 'general', task: decoyTask });
      const victim = await start({ agent: 'general', task: victimTask });
      await Promise.all([waitForApprovals(decoy), waitForApprovals(victim)]);
      // Alice really rejects the decoy's call (same call id as the victim's, as the demo model's ids repeat).
      const rejected = aliceSigns(await describeRunIdentity(decoy), writeArgs('decoy.txt'), { callId: 'toolu_0_0', decision: 'reject', expiresAt: inTenMinutes() });
      await decoy.executeUpdate(decideApprovalUpdate, { args: [rejected] });
      const forged: ApprovalDecision = { ...rejected, decision: 'approve_always', scope: 'tool' };
      // The victim's call has other arguments than the decoy's, which the decision names (issue 32); without the hash, the signature fails.
      expect(await refusal(victim.executeUpdate(decideApprovalUpdate, { args: [forged] }))).toMatch(/^the arguments of toolu_0_0 changed since they were shown/);
      expect(await refusal(victim.executeUpdate(decideApprovalUpdate, { args: [{ ...forged, argumentsHash: argumentsHash(writeArgs('victim.txt')) }] }))).toMatch(/^bad signature for alice/);
      expect(await refusal(victim.executeUpdate(decideApprovalUpdate, { args: [{ ...rejected, argumentsHash: argumentsHash(writeArgs('victim.txt')) }] }))).toMatch(/^bad signature for alice/);
      await stillParked(victim);
    });
  });

  it('refuses a signature replayed into a new run started under the same workflow id', async () => {
    const task = uniqueId('reused');
    const nextTask = uniqueId('reused-again');
    fake.script(task, [write('harmless.txt')]);
    fake.script(nextTask, [write('harmless.txt'), done]);
    await withAgentWorker(harness(), async ({ client, taskQueue }) => {
      const workflowId = uniqueId('reused-id');
      const first = await startRun(client, { agent: 'general', task }, { taskQueue, workflowId });
      await waitForApprovals(first);
      const old = aliceSigns(await describeRunIdentity(first), writeArgs('harmless.txt'), { callId: 'toolu_0_0', decision: 'approve', expiresAt: inTenMinutes() });
      await first.terminate('the attacker ends it before alice decides');
      // Same id, same call id, even the same arguments: only the first run id differs, and that is enough.
      const second = await startRun(client, { agent: 'general', task: nextTask }, { taskQueue, workflowId });
      await waitForApprovals(second);
      expect(await refusal(second.executeUpdate(decideApprovalUpdate, { args: [old] }))).toMatch(/^bad signature for alice/);
      // The signal path refuses it too.
      await second.signal(approvalSignal, old);
      await waitFor(async () => ((await second.query(statusQuery)).ignored.some((i) => /^bad signature for alice/.test(i.reason)) ? true : undefined), 'the ignored replay');
      await stillParked(second);
      await second.terminate('test done');
    });
  });

  it('refuses other arguments, an altered reason, a prefix the call does not start with, an expired and an old-format signature; then applies a good one', async () => {
    const task = uniqueId('altered');
    fake.script(task, [write('notes/a.txt'), done]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      await waitForApprovals(handle);
      const run = await describeRunIdentity(handle);
      const args = writeArgs('notes/a.txt');
      const decide = (decision: ApprovalDecision) => handle.executeUpdate(decideApprovalUpdate, { args: [decision] });

      // Alice approved writing another file: not this call's arguments.
      const otherArgs = aliceSigns(run, writeArgs('notes/b.txt'), { callId: 'toolu_0_0', decision: 'approve', expiresAt: inTenMinutes() });
      expect(await refusal(decide(otherArgs))).toMatch(/^the arguments of toolu_0_0 changed since they were shown/);
      expect(await refusal(decide({ ...otherArgs, argumentsHash: argumentsHash(args) }))).toMatch(/^bad signature for alice/);

      const withReason = aliceSigns(run, args, { callId: 'toolu_0_0', decision: 'approve', reason: 'one file', expiresAt: inTenMinutes() });
      expect(await refusal(decide({ ...withReason, reason: 'approved by the security team' }))).toMatch(/^bad signature for alice/);

      // Validly signed by alice, but "docs/" does not start the call's path: it would remember a choice she never saw.
      const wrongPrefix = aliceSigns(run, args, { callId: 'toolu_0_0', decision: 'approve_always', prefix: 'docs/', expiresAt: inTenMinutes() });
      expect(await refusal(decide(wrongPrefix))).toMatch(/^"prefix" "docs\/" is not a prefix of toolu_0_0's path "notes\/a.txt"/);

      const expired = aliceSigns(run, args, { callId: 'toolu_0_0', decision: 'approve', expiresAt: new Date(Date.now() - 1_000).toISOString() });
      expect(await refusal(decide(expired))).toMatch(/^signature expired at /);

      const v1 = signWithApproverKey('alice', legacyDecisionText({ workflowId: handle.workflowId, callId: 'toolu_0_0', decision: 'approve', approver: 'alice' }), { dir: keys })!;
      expect(await refusal(decide({ callId: 'toolu_0_0', decision: 'approve', approver: 'alice', signature: v1 }))).toMatch(
        /^old-format signature \(v1, newline-joined text, no expiry\) refused: .*docs\/guides\/approvals\.md, "Re-signing"/,
      );
      await stillParked(handle);

      expect(await decide(withReason)).toMatchObject({ applied: true });
      expect((await handle.result()).status).toBe('completed');
      expect((await handle.query(statusQuery)).decisions).toContainEqual(expect.objectContaining({ callId: 'toolu_0_0', reason: 'one file', approver: 'alice', verified: true }));
    });
  });

  it('applies a decision signed the new way by agentctl, with a prefix that starts the call, as an update and as a signal', async () => {
    const task = uniqueId('cli-signed');
    fake.script(task, [write('notes/b.txt'), write('notes/c.txt'), write('other.txt'), done]);
    await withAgentWorker(harness(), async ({ start, taskQueue }) => {
      const handle = await start({ agent: 'general', task });
      await waitForApprovals(handle);
      const env = { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue, AGENT_KEYS_DIR: keys };
      const always = await agentctl(['approve', handle.workflowId, '--always', '--prefix', 'notes/', '--approver', 'alice', '--reason', 'notes only'], env);
      expect(always).toMatchObject({ code: 0 });
      // notes/c.txt is covered by alice's remembered prefix; other.txt is asked again.
      await waitFor(async () => {
        const s = await handle.query(statusQuery);
        return s.pendingApprovals.some((p) => (p.input as { path?: string }).path === 'other.txt') ? s : undefined;
      }, 'the third call to park');
      const signal = await agentctl(['approve', handle.workflowId, '--approver', 'alice', '--signal'], env);
      expect(signal).toMatchObject({ code: 0 });
      expect((await handle.result()).status).toBe('completed');
      const decisions = (await handle.query(statusQuery)).decisions;
      expect(decisions).toContainEqual(expect.objectContaining({ decision: 'approve_always', approver: 'alice', reason: 'notes only', verified: true }));
      expect(decisions).toContainEqual(expect.objectContaining({ decision: 'approve', approver: 'alice', via: 'signal', verified: true }));
    });
  });
});
