// Issue 23: a signed approval with edited arguments. The signature covers a hash of the edited
// arguments besides the original ones, so a signature made over the original call cannot carry an edit.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalDecision } from '../../../src/contract/approval-decision';
import { argumentsHash, decisionMessage, signedText, type DecisionFields, type RunIdentity } from '../../../src/core/approvals/signatures/signed-message';
import { createApproverKey, signWithApproverKey } from '../../../src/client/approver-keys';
import { describeRunIdentity } from '../../../src/client/sign-messages';
import { decideApprovalUpdate, setModeUpdate, statusQuery } from '../../../src/contract/agent-run-api';
import { waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

const original = { path: 'original.txt', content: 'x' };
const edited = { path: 'edited.txt', content: 'y' };
const inTenMinutes = () => new Date(Date.now() + 600_000).toISOString();

describe('signed edited approvals', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;
  let dir: string;
  let keys: string;
  let registryFile: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'signed-edits-'));
    keys = path.join(dir, 'keys');
    registryFile = path.join(dir, 'approvers.json');
    await writeFile(registryFile, JSON.stringify(createApproverKey('alice', { dir: keys }).registryEntry));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const aliceSigns = (run: RunIdentity, args: unknown, fields: Omit<DecisionFields, 'approver'>): string =>
    signWithApproverKey('alice', signedText(decisionMessage(run, args, { ...fields, approver: 'alice' })), { dir: keys })!;

  it('refuses an edited call whose signature covers only the original arguments, and runs one signed over the edit', async () => {
    const task = uniqueId('signed-edit');
    fake.script(task, [reply(toolCall('write_file', original)), reply(toolCall('complete_task', { summary: 'done', status: 'success' }))]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registryFile } }, async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task });
      await waitForApprovals(handle);
      const run = await describeRunIdentity(handle);
      const expiresAt = inTenMinutes();
      const base = { callId: 'toolu_0_0', decision: 'approve' as const, expiresAt };
      // Alice approved the call as the model asked for it; someone adds an edit to her signed decision.
      const overOriginal: ApprovalDecision = { ...base, approver: 'alice', signature: aliceSigns(run, original, base), arguments: edited };
      const error = await handle.executeUpdate(decideApprovalUpdate, { args: [overOriginal] }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((error as WorkflowUpdateFailedError).cause?.message).toMatch(/^bad signature for alice: .*arguments \(the original and the edited ones\)/);
      expect((await handle.query(statusQuery)).phase).toBe('waiting_approval');

      const overEdit: ApprovalDecision = { ...base, approver: 'alice', arguments: edited, argumentsHash: argumentsHash(original), signature: aliceSigns(run, original, { ...base, arguments: edited }) };
      await handle.executeUpdate(decideApprovalUpdate, { args: [overEdit] });
      expect((await handle.result()).status).toBe('completed');
      expect(existsSync(path.join(workspace, 'edited.txt'))).toBe(true);
      expect(existsSync(path.join(workspace, 'original.txt'))).toBe(false);
    });
  });

  it('refuses an unsigned mode switch that would loosen a run taking signed decisions, and takes one that tightens it', async () => {
    const task = uniqueId('signed-mode');
    fake.script(task, [reply(toolCall('write_file', original)), reply(toolCall('complete_task', { summary: 'done', status: 'success' }))]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registryFile } }, async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task });
      await waitForApprovals(handle);
      // An insider names alice and switches to acceptEdits, so the parked write would need no one's key.
      const error = await handle.executeUpdate(setModeUpdate, { args: [{ mode: 'acceptEdits', by: 'alice' }] }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((error as WorkflowUpdateFailedError).cause?.message).toMatch(/takes signed decisions only.*may only tighten/);
      const status = await handle.query(statusQuery);
      expect(status.mode).toBe('default');
      expect(status.phase).toBe('waiting_approval');
      expect(existsSync(path.join(workspace, 'original.txt'))).toBe(false);
      await handle.executeUpdate(setModeUpdate, { args: [{ mode: 'plan', by: 'alice' }] });
      expect((await handle.query(statusQuery)).mode).toBe('plan');
      await handle.terminate('test done');
    });
  });
});
