// Issue 32, must-have 6 (finding 8's replays), attacked as the issue's insider would: namespace access,
// no key. A signed decision or steering message is lifted from the run's own history and sent again;
// the run refuses the copy, by name, and takes a fresh signature of the same approver.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { builtinAgents } from '../../../src/runtime/agents/builtin-agents';
import { createApproverKey, signWithApproverKey } from '../../../src/client/approver-keys';
import { describeRunIdentity } from '../../../src/client/sign-messages';
import { approvalSignal, decideApprovalUpdate, sendMessageUpdate, statusQuery, userMessageSignal } from '../../../src/contract/agent-run-api';
import { argumentsHash, decisionMessage, followUpMessage, signedText, type RunIdentity } from '../../../src/core/approvals/signatures/signed-message';
import type { ApprovalDecision, FollowUp } from '../../../src/contract/approval-decision';
import type { RunStatus } from '../../../src/contract/run-status';
import { waitFor, waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

const general = builtinAgents.find((a) => a.name === 'general')!;
const guarded: AgentDefinitionInput = { ...general, name: 'guarded', description: 'Writes files.', modelTier: 'fast', approvers: ['alice'] };
const done = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));
const ARGS = { path: 'notes.txt', content: 'x' };
const write = (id: string) => reply(toolCall('write_file', ARGS, id));
const REPLAYED = /^this signed message was already accepted at \d{4}-\d\d-\d\dT[\d:.]+Z; a signature is accepted once: sign a new one/;

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  return (error as WorkflowUpdateFailedError).cause?.message ?? '';
}

/** What the insider reads: every accepted update of `name` in the run's history, its argument decoded. */
async function liftedUpdates<T>(handle: WorkflowHandle, name: string): Promise<T[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).flatMap((event) => {
    const request = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest;
    if (request?.input?.name !== name) return [];
    return (request.input.args?.payloads ?? []).map((p) => defaultPayloadConverter.fromPayload<T>(p));
  });
}

const ignoredAtLeast = (handle: WorkflowHandle, count: number): Promise<RunStatus> =>
  waitFor(async () => {
    const s = await handle.query(statusQuery);
    return s.ignored.length >= count ? s : undefined;
  }, `${count} ignored message(s)`);

describe('issue 32, must-have 6: a signed payload is accepted once', () => {
  const bed = useAgentTestbed({ agents: [guarded, general] });
  let dir: string;
  let keys: string;
  let registryFile: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'signed-once-'));
    keys = path.join(dir, 'keys');
    registryFile = path.join(dir, 'approvers.json');
    await writeFile(registryFile, JSON.stringify(createApproverKey('alice', { dir: keys }).registryEntry));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const approve = (run: RunIdentity, callId: string): ApprovalDecision => {
    const expiresAt = new Date(Date.now() + 600_000).toISOString();
    const fields = { callId, decision: 'approve' as const, approver: 'alice', expiresAt, argumentsHash: argumentsHash(ARGS) };
    return { ...fields, workflowId: run.workflowId, signature: signWithApproverKey('alice', signedText(decisionMessage(run, ARGS, fields)), { dir: keys })! };
  };
  const steer = (run: RunIdentity, text: string): FollowUp => {
    const expiresAt = new Date(Date.now() + 600_000).toISOString();
    return { text, sender: 'alice', expiresAt, signature: signWithApproverKey('alice', signedText(followUpMessage(run, { sender: 'alice', text, expiresAt })), { dir: keys })! };
  };

  it('a signed decision lifted from the history does not approve a later call with the same id and arguments; a fresh one does', async () => {
    const task = uniqueId('replay-decision');
    // The model asks for the same call, under the same id, twice: the signature covers both alike.
    bed.fake.script(task, [write('toolu_same'), write('toolu_same'), done('done')]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registryFile } }, async ({ start }) => {
      const handle = await start({ agent: 'guarded', task });
      await waitForApprovals(handle);
      const run = await describeRunIdentity(handle);
      await handle.executeUpdate(decideApprovalUpdate, { args: [approve(run, 'toolu_same')] });
      await waitFor(async () => {
        const s = await handle.query(statusQuery);
        return s.iteration >= 2 && s.pendingApprovals.length === 1 ? s : undefined;
      }, 'the second call to park');

      const [lifted] = await liftedUpdates<ApprovalDecision>(handle, decideApprovalUpdate.name);
      expect(lifted).toMatchObject({ callId: 'toolu_same', approver: 'alice' });
      expect(await refusal(handle.executeUpdate(decideApprovalUpdate, { args: [lifted!] }))).toMatch(REPLAYED);
      await handle.signal(approvalSignal, lifted!);
      const status = await ignoredAtLeast(handle, 1);
      expect(status.ignored[0]).toMatchObject({ kind: 'approval', reason: expect.stringMatching(REPLAYED) });
      expect(status.phase).toBe('waiting_approval');
      expect(status.decisions).toHaveLength(1);

      await handle.executeUpdate(decideApprovalUpdate, { args: [approve(run, 'toolu_same')] });
      expect((await handle.result()).status).toBe('completed');
      expect((await handle.query(statusQuery)).decisions).toHaveLength(2);
    });
  }, 120_000);

  it('a signed steering message lifted from the history is refused (update and signal); a fresh signature of the same text is taken', async () => {
    const task = uniqueId('replay-steer');
    bed.fake.script(task, [write('toolu_w'), done('done')]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registryFile } }, async ({ start }) => {
      const handle = await start({ agent: 'guarded', task });
      await waitForApprovals(handle);
      const run = await describeRunIdentity(handle);
      await handle.executeUpdate(sendMessageUpdate, { args: [steer(run, 'STEER: keep it short')] });

      const [lifted] = await liftedUpdates<FollowUp>(handle, sendMessageUpdate.name);
      expect(lifted).toMatchObject({ sender: 'alice', text: 'STEER: keep it short' });
      expect(await refusal(handle.executeUpdate(sendMessageUpdate, { args: [lifted!] }))).toMatch(REPLAYED);
      for (let i = 0; i < 3; i++) await handle.signal(userMessageSignal, lifted!);
      const status = await ignoredAtLeast(handle, 3);
      expect(status.ignored.map((i) => i.kind)).toEqual(['userMessage', 'userMessage', 'userMessage']);
      for (const ignored of status.ignored) expect(ignored.reason).toMatch(REPLAYED);

      // Alice signs the same text again: a new signature, taken.
      await handle.executeUpdate(sendMessageUpdate, { args: [steer(run, 'STEER: keep it short')] });
      await handle.executeUpdate(decideApprovalUpdate, { args: [approve(run, 'toolu_w')] });
      expect((await handle.result()).status).toBe('completed');
    });
    const request = JSON.stringify(bed.fake.requestsFor(task).at(-1)?.body.messages);
    expect(request.split('STEER: keep it short').length - 1).toBe(2);
  }, 120_000);
});
