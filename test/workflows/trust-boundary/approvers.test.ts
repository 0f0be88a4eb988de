// Who may decide, on a real worker: named approvers, and with an approver registry, signed decisions.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argumentsHash, decisionMessage, signedText } from '../../../src/core/approvals/signatures/signed-message';
import { createApproverKey, signWithApproverKey } from '../../../src/client/approver-keys';
import { describeRunIdentity } from '../../../src/client/sign-messages';
import { approvalSignal, decideApprovalUpdate, statusQuery } from '../../../src/contract/agent-run-api';
import { agentctl } from '../../client/agentctl-process';
import { waitFor, waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';

const write = (file: string) => reply(toolCall('write_file', { path: file, content: 'x' }));
const done = reply(toolCall('complete_task', { summary: 'done', status: 'success' }));

/** The reason an update was refused with. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  return (error as WorkflowUpdateFailedError).cause?.message ?? '';
}

describe('who may decide', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('refuses a decision from someone who is not an approver (update: refused; signal: recorded as ignored), and the call stays parked', async () => {
    const task = uniqueId('approvers');
    fake.script(task, [write('a.txt'), done]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task, approvers: ['ana'] });
      await waitForApprovals(handle);
      const reason = await refusal(handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'approve', approver: 'mallory' }] }));
      expect(reason).toBe('"mallory" may not decide calls of this run (approvers: ana); the call stays parked');
      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve' });
      const status = await waitFor(async () => {
        const s = await handle.query(statusQuery);
        return s.ignored.length > 0 ? s : undefined;
      }, 'the ignored signal');
      expect(status.ignored[0]!.reason).toMatch(/^a decision without an approver may not decide/);
      expect(status.phase).toBe('waiting_approval');
      expect(status.approvers).toEqual(['ana']);
      await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'approve', approver: 'ana' }] });
      expect((await handle.result()).status).toBe('completed');
    });
  });

  describe('with an approver registry', () => {
    let dir: string;
    let keys: string;
    let registryFile: string;

    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'registry-'));
      keys = path.join(dir, 'keys');
      const ana = createApproverKey('ana', { dir: keys });
      registryFile = path.join(dir, 'approvers.json');
      await writeFile(registryFile, JSON.stringify(ana.registryEntry));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('refuses unsigned and badly signed decisions and unknown approvers, and applies a good signature', async () => {
      const task = uniqueId('signed');
      fake.script(task, [write('s.txt'), done]);
      await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registryFile } }, async ({ start }) => {
        const handle = await start({ agent: 'general', task });
        expect((await waitForApprovals(handle)).signedDecisions).toBe(true);
        const decide = (decision: object) => handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'approve', ...decision }] });
        expect(await refusal(decide({ approver: 'ana' }))).toMatch(/^unsigned decision: this worker requires signatures/);
        expect(await refusal(decide({ approver: 'bob', signature: 'AAAA' }))).toMatch(/^unknown approver bob/);
        const run = await describeRunIdentity(handle);
        const expiresAt = new Date(Date.now() + 600_000).toISOString();
        const args = { path: 's.txt', content: 'x' };
        // Signed by ana, but for another call: the signature does not cover this one.
        const other = signWithApproverKey('ana', signedText(decisionMessage(run, args, { callId: 'toolu_9_9', decision: 'approve', approver: 'ana', expiresAt })), { dir: keys })!;
        expect(await refusal(decide({ approver: 'ana', signature: other, expiresAt }))).toMatch(/^bad signature for ana/);
        const good = signWithApproverKey('ana', signedText(decisionMessage(run, args, { callId: 'toolu_0_0', decision: 'approve', approver: 'ana', expiresAt })), { dir: keys })!;
        // A good signature must also say which arguments ana saw (issue 32).
        expect(await refusal(decide({ approver: 'ana', signature: good, expiresAt }))).toMatch(/^signed decision on toolu_0_0 carries no argumentsHash/);
        expect(await decide({ approver: 'ana', signature: good, expiresAt, argumentsHash: argumentsHash(args) })).toMatchObject({ applied: true });
        expect((await handle.result()).status).toBe('completed');
        expect((await handle.query(statusQuery)).decisions).toContainEqual(expect.objectContaining({ callId: 'toolu_0_0', approver: 'ana', verified: true }));
      });
    });

    it('signs automatically when agentctl approve finds the approver\'s key', async () => {
      const task = uniqueId('signed-cli');
      fake.script(task, [write('c.txt'), done]);
      await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registryFile } }, async ({ start, taskQueue }) => {
        const handle = await start({ agent: 'general', task });
        await waitForApprovals(handle);
        const env = { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue, AGENT_KEYS_DIR: keys };
        const unsigned = await agentctl(['approve', handle.workflowId, '--approver', 'eve'], env);
        expect(unsigned.code).not.toBe(0);
        expect(unsigned.stderr).toMatch(/unknown approver eve|unsigned decision/);
        const signed = await agentctl(['approve', handle.workflowId, '--approver', 'ana'], env);
        expect(signed).toMatchObject({ code: 0 });
        expect((await handle.result()).status).toBe('completed');
      });
    });

    it('signs automatically when the run prompt\'s approver has a key', async () => {
      const task = uniqueId('signed-prompt');
      fake.script(task, [write('d.txt'), done]);
      await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registryFile } }, async ({ client, taskQueue }) => {
        const id = uniqueId('run');
        const env = { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue, AGENT_KEYS_DIR: keys };
        // The prompt of `agentctl run --interactive`, answered "y" through stdin by ana, who has a key.
        const { code, stdout } = await agentctl(['run', 'general', task, '--id', id, '--interactive', '--approver', 'ana'], env, 'y\n');
        expect(stdout).toContain('Approve? [y/n/always/never]');
        expect(code).toBe(0);
        const status = await client.workflow.getHandle(id).query(statusQuery);
        expect(status.decisions).toContainEqual(expect.objectContaining({ callId: 'toolu_0_0', decision: 'approve', approver: 'ana', verified: true }));
      });
    });
  });
});
