// A signature names the run by its first execution's run id, so a decision signed while the run was
// parked in one link still counts after the run continued as new (a new run id, same chain).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argumentsHash, decisionMessage, signedText } from '../../../src/core/approvals/signatures/signed-message';
import { createApproverKey, signWithApproverKey } from '../../../src/client/approver-keys';
import { describeRunIdentity } from '../../../src/client/sign-messages';
import { startRun } from '../../../src/client/start-run';
import { approvalSignal, decideApprovalUpdate, statusQuery } from '../../../src/contract/agent-run-api';
import { waitFor, withAgentWorker } from '../../support/agent-run-harness';
import { useFakeModel } from '../../support/agent-testbed';
import { uniqueId } from '../../support/temporal';
import { callId, chainAgent, chainPlan, gatedStepTool, stepScript, stepTool } from '../../support/step-script';

const GATED = 3;
const plan = chainPlan({ gated: GATED, last: 6, summary: 'six steps done' });

describe('a signed decision across continue-as-new', () => {
  const bed = useFakeModel();
  let dir: string;
  let keys: string;
  let registryFile: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'signed-links-'));
    keys = path.join(dir, 'keys');
    registryFile = path.join(dir, 'approvers.json');
    await writeFile(registryFile, JSON.stringify(createApproverKey('alice', { dir: keys }).registryEntry));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('applies a decision signed in one link after the run continued as new', async () => {
    const task = `${uniqueId('links')} Chain drill with one signed approval`;
    bed.fake.script(task, stepScript(plan));
    const harness = { ...bed.harness(), agents: [chainAgent], tools: [stepTool, gatedStepTool], env: { AGENT_APPROVERS_FILE: registryFile } };
    await withAgentWorker(harness, async ({ client, taskQueue }) => {
      const handle = await startRun(client, { agent: 'chain', task, historyBudget: { maxEvents: 60 } }, { taskQueue, workflowId: uniqueId('links') });
      const parked = await waitFor(async () => {
        const s = await handle.query(statusQuery);
        return s.pendingApprovals.length > 0 ? s : undefined;
      }, 'the gated step to park');
      const pending = parked.pendingApprovals[0]!;
      const run = await describeRunIdentity(handle);
      const fields = { callId: callId(GATED), decision: 'approve' as const, approver: 'alice', expiresAt: new Date(Date.now() + 600_000).toISOString() };
      const signature = signWithApproverKey('alice', signedText(decisionMessage(run, pending.input, fields)), { dir: keys })!;

      // Ignored signals grow the history until the run hands over to a new link, still parked.
      const parkedRunId = (await handle.describe()).runId;
      for (let i = 0; i < 40 && (await handle.describe()).runId === parkedRunId; i += 1) {
        await handle.signal(approvalSignal, { callId: `no-such-call-${i}`, decision: 'approve' });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await waitFor(async () => {
        const s = await handle.query(statusQuery);
        return s.continueAsNewLinks > parked.continueAsNewLinks && s.phase === 'waiting_approval' ? s : undefined;
      }, 'the next link to wait for the same approval');
      expect((await describeRunIdentity(handle)).runId).toBe(run.runId);

      expect(await handle.executeUpdate(decideApprovalUpdate, { args: [{ ...fields, signature, argumentsHash: argumentsHash(pending.input) }] })).toMatchObject({ applied: true });
      expect((await handle.result()).status).toBe('completed');
    });
  });
});
