// A sub-agent's call decided at the root with an approver registry: the signature covers the
// sub-agent's run (the one that waits for the call), which checks it after the root forwards it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { builtinAgents } from '../../../src/runtime/agents/builtin-agents';
import { argumentsHash, decisionMessage, signedText } from '../../../src/core/approvals/signatures/signed-message';
import { createApproverKey, signWithApproverKey } from '../../../src/client/approver-keys';
import { describeRunIdentity } from '../../../src/client/sign-messages';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { approvalSignal, decideApprovalUpdate, statusQuery } from '../../../src/contract/agent-run-api';
import { agentctl } from '../../client/agentctl-process';
import { waitFor, waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';

const general = builtinAgents.find((a) => a.name === 'general')!;
const specialist: AgentDefinitionInput = { ...general, name: 'specialist', description: 'Writes files.', modelTier: 'fast' };
const coordinator: AgentDefinitionInput = { ...general, name: 'coordinator', description: 'Delegates.', subAgents: ['specialist'] };
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const done = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));

describe("a sub-agent's call, signed", () => {
  const bed = useAgentTestbed({ agents: [coordinator, specialist, general] });
  let dir: string;
  let keys: string;
  let registryFile: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'signed-sub-'));
    keys = path.join(dir, 'keys');
    registryFile = path.join(dir, 'approvers.json');
    await writeFile(registryFile, JSON.stringify(createApproverKey('alice', { dir: keys }).registryEntry));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("refuses a signature made for the root's run, and applies agentctl's, made for the sub-agent's run", async () => {
    const [task, subTask] = [uniqueId('signed-root'), uniqueId('signed-leaf')];
    bed.fake.script(task, [reply(toolCall('delegate_task', { agent: 'specialist', task: subTask })), done('root done')]);
    bed.fake.script(subTask, [reply(toolCall('write_file', { path: 'leaf.txt', content: 'x' })), done('leaf done')]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registryFile } }, async ({ start, client, taskQueue }) => {
      const root = await start({ agent: 'coordinator', task });
      const { pendingApprovals } = await waitForApprovals(root, 1, 30_000);
      const childId = pendingApprovals[0]!.workflowId;
      expect(childId).toBe(`${root.workflowId}/sub-toolu_0_0`);
      // Right call id and arguments, but signed over the root's run: the sub-agent's run refuses it.
      const expiresAt = new Date(Date.now() + 600_000).toISOString();
      const fields = { callId: 'toolu_0_0', decision: 'approve' as const, approver: 'alice', expiresAt };
      const signature = signWithApproverKey('alice', signedText(decisionMessage(await describeRunIdentity(root), pendingApprovals[0]!.input, fields)), { dir: keys })!;
      // It names what alice saw, so the root forwards it; only the run that waits can check its signature,
      // and the root answers with what that run said (issue 32, must-have 4: refused, and why).
      const forged = { ...fields, signature, argumentsHash: argumentsHash(pendingApprovals[0]!.input) };
      const error = await root.executeUpdate(decideApprovalUpdate, { args: [forged] }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((error as WorkflowUpdateFailedError).cause?.message).toMatch(new RegExp(`^approve for toolu_0_0 refused by ${escape(childId)}, the sub-agent run that waits for it: bad signature for alice`));
      // The signal path: the root records the run below's refusal in its own ignored list.
      await root.signal(approvalSignal, forged);
      const ignored = await waitFor(async () => {
        const s = await root.query(statusQuery);
        return s.ignored.length > 0 ? s.ignored : undefined;
      }, 'the root to record the refusal');
      expect(ignored[0]!.reason).toMatch(/refused by .*: bad signature for alice/);
      const child = client.workflow.getHandle(childId);
      expect((await child.query(statusQuery)).decisions).toEqual([]);

      const env = { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue, AGENT_KEYS_DIR: keys };
      expect(await agentctl(['approve', root.workflowId, '--approver', 'alice'], env)).toMatchObject({ code: 0 });
      expect((await root.result()).completion?.summary).toBe('root done');
      expect((await child.query(statusQuery)).decisions).toContainEqual(expect.objectContaining({ approver: 'alice', verified: true }));
    });
  });
});
