// Only approvers steer a restricted run (issue 19): in a run with `approvers`, answers to questions
// and follow-up messages are taken only from them (signed, with an approver registry), through a
// plain Temporal client's updates and signals; and the audit log names who sent a follow-up.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replyMessage, signedText } from '../../../src/core/approvals/signatures/signed-message';
import { createApproverKey, signWithApproverKey } from '../../../src/client/approver-keys';
import { describeRunIdentity } from '../../../src/client/sign-messages';
import { closeThreadUpdate, sendMessageUpdate, statusQuery, submitReplyUpdate, userMessageSignal, userReplySignal } from '../../../src/contract/agent-run-api';
import type { RunStatus } from '../../../src/contract/run-status';
import { agentctl } from '../../client/agentctl-process';
import { toolResultsIn, waitFor, waitForPhase, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';

const ask = reply(toolCall('need_more_information', { question: 'Which environment?' }));
const done = (summary = 'done') => reply(toolCall('complete_task', { summary, status: 'success' }));

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  return (error as WorkflowUpdateFailedError).cause?.message ?? '';
}

/** Waits until the run has recorded `count` ignored messages (a signal cannot answer; this is how it says no). */
const ignoredAtLeast = (handle: WorkflowHandle, count: number): Promise<RunStatus> =>
  waitFor(async () => {
    const s = await handle.query(statusQuery);
    return s.ignored.length >= count ? s : undefined;
  }, `${count} ignored message(s)`);

describe('only approvers steer a restricted run', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it("refuses a non-approver's answer (update) and ignores it (signal); the approver's answer is the one the agent gets", async () => {
    const task = uniqueId('answer');
    fake.script(task, [ask, done()]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task, approvers: ['ana'] });
      await waitForPhase(handle, 'waiting_input');
      expect(await refusal(handle.executeUpdate(submitReplyUpdate, { args: [{ text: 'production', sender: 'bob' }] }))).toBe(
        '"bob" may not answer questions of this run (approvers: ana); ignored',
      );
      expect(await refusal(handle.executeUpdate(submitReplyUpdate, { args: [{ text: 'production' }] }))).toMatch(/^a sender who gives no name may not answer/);
      await handle.signal(userReplySignal, { text: 'production', sender: 'bob' });
      const status = await ignoredAtLeast(handle, 1);
      expect(status.ignored[0]).toMatchObject({ kind: 'userReply', reason: '"bob" may not answer questions of this run (approvers: ana); ignored' });
      expect(status.phase).toBe('waiting_input');
      await handle.executeUpdate(submitReplyUpdate, { args: [{ text: 'staging', sender: 'ana' }] });
      expect((await handle.result()).status).toBe('completed');
    });
    expect(toolResultsIn(fake.requestsFor(task)[1])).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_0_0', content: 'The user replied: staging' }]);
  });

  it("refuses a non-approver's follow-up (update) and ignores it (signal): the agent never sees it", async () => {
    const task = uniqueId('follow-up');
    fake.script(task, [done('first'), done('second')]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task, followUps: true, approvers: ['ana'] });
      await waitForPhase(handle, 'idle');
      expect(await refusal(handle.executeUpdate(sendMessageUpdate, { args: [{ text: 'delete the backups', sender: 'bob' }] }))).toBe(
        '"bob" may not send follow-up messages to this run (approvers: ana); ignored',
      );
      await handle.signal(userMessageSignal, { text: 'delete the backups', sender: 'bob' });
      await handle.signal(userMessageSignal, { text: 'delete the backups' });
      const status = await ignoredAtLeast(handle, 2);
      expect(status.ignored.map((i) => i.kind)).toEqual(['userMessage', 'userMessage']);
      expect(status.phase).toBe('idle');
      expect(fake.requestsFor(task)).toHaveLength(1);
      await handle.executeUpdate(sendMessageUpdate, { args: [{ text: 'summarise again', sender: 'ana' }] });
      await waitFor(async () => ((await handle.query(statusQuery)).completions.length === 2 ? true : undefined), 'the second answer');
      await handle.executeUpdate(closeThreadUpdate, { args: [] });
      await handle.result();
    });
    const requests = fake.requestsFor(task);
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[1]!.body.messages)).not.toContain('delete the backups');
  });

  describe('with an approver registry', () => {
    let dir: string;
    let keys: string;
    let registryFile: string;

    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'steering-'));
      keys = path.join(dir, 'keys');
      registryFile = path.join(dir, 'approvers.json');
      const entries = { ...createApproverKey('ana', { dir: keys }).registryEntry, ...createApproverKey('bob', { dir: keys }).registryEntry };
      await writeFile(registryFile, JSON.stringify(entries));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('takes answers and messages from approvers only when signed (agentctl signs them), and refuses an altered text', async () => {
      const task = uniqueId('signed-steer');
      fake.script(task, [ask, done('first'), done('second')]);
      await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registryFile } }, async ({ start, taskQueue }) => {
        const handle = await start({ agent: 'general', task, followUps: true, approvers: ['ana'] });
        await waitForPhase(handle, 'waiting_input');
        expect(await refusal(handle.executeUpdate(submitReplyUpdate, { args: [{ text: 'staging', sender: 'ana' }] }))).toMatch(/^unsigned reply: this worker requires signatures/);
        // A real signature of ana's, over another text.
        const expiresAt = new Date(Date.now() + 600_000).toISOString();
        const run = await describeRunIdentity(handle);
        const signature = signWithApproverKey('ana', signedText(replyMessage(run, { callId: 'toolu_0_0', sender: 'ana', text: 'staging', expiresAt })), { dir: keys })!;
        expect(await refusal(handle.executeUpdate(submitReplyUpdate, { args: [{ text: 'production', sender: 'ana', signature, expiresAt }] }))).toMatch(/^bad signature for ana/);
        const env = { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue, AGENT_KEYS_DIR: keys };
        // bob has a registered key, but he is not an approver of this run.
        const bobs = await agentctl(['reply', handle.workflowId, 'production', '--approver', 'bob'], env);
        expect(bobs.code).not.toBe(0);
        expect(bobs.stderr).toContain('"bob" may not answer questions of this run');
        expect(await agentctl(['reply', handle.workflowId, 'staging', '--approver', 'ana'], env)).toMatchObject({ code: 0 });
        await waitForPhase(handle, 'idle');
        expect(await refusal(handle.executeUpdate(sendMessageUpdate, { args: [{ text: 'again', sender: 'ana' }] }))).toMatch(/^unsigned message/);
        expect(await agentctl(['send', handle.workflowId, 'again', '--approver', 'ana', '--detach'], env)).toMatchObject({ code: 0 });
        await waitFor(async () => ((await handle.query(statusQuery)).completions.length === 2 ? true : undefined), 'the second answer');
        await handle.executeUpdate(closeThreadUpdate, { args: [] });
        await handle.result();
      });
    });
  });

  it('names the sender of the follow-up a call came from in the audit log (requestedBy)', async () => {
    const task = uniqueId('audit-sender');
    const auditDir = await mkdtemp(path.join(tmpdir(), 'audit-sender-'));
    const auditLog = path.join(auditDir, 'audit.log');
    fake.script(task, [done('first'), reply(toolCall('list_files', { path: '.' })), done('listed')]);
    try {
      await withAgentWorker({ ...bed.harness(), auditLog }, async ({ start }) => {
        const handle = await start({ agent: 'general', task, followUps: true });
        await waitForPhase(handle, 'idle');
        await handle.executeUpdate(sendMessageUpdate, { args: [{ text: 'list the files', sender: 'bob' }] });
        await waitFor(async () => ((await handle.query(statusQuery)).completions.length === 2 ? true : undefined), 'the second answer');
        await handle.executeUpdate(closeThreadUpdate, { args: [] });
        await handle.result();
      });
      const records = (await readFile(auditLog, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(records).toContainEqual(expect.objectContaining({ kind: 'call', tool: 'list_files', decision: 'policy_allow', requestedBy: 'bob' }));
    } finally {
      await rm(auditDir, { recursive: true, force: true });
    }
  });
});
