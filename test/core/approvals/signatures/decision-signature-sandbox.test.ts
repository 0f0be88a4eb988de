// Proves that the signature check (sha256 and Ed25519 over the canonical message) runs inside
// Temporal's workflow sandbox, where Node built-ins, Buffer and WebCrypto are not to be relied on. A
// hand-written history of a run that completed in one workflow task is replayed against a tiny
// workflow that calls checkSignature: replay runs the real bundle in the real sandbox and needs no Temporal server. When the check refuses, the
// workflow fails its task instead of completing as the history says, so replay throws.
import { generateKeyPairSync, sign } from 'node:crypto';
import * as path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundle } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { decisionMessage, signedText } from '../../../../src/core/approvals/signatures/signed-message';
import { quietTemporalLogs } from '../../../support/agent-run-harness';

const WORKFLOW_ID = 'sandbox-run-1';
const FIRST_RUN_ID = '5f1d8a0e-0000-4000-8000-000000000001';
const ARGS = { command: 'npm test' };
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const registry = { ana: publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex') };

const signedFor = (workflowId: string, runId = FIRST_RUN_ID) => {
  const fields = { callId: 'call-1', decision: 'approve', approver: 'ana', expiresAt: '2026-01-01T01:00:00.000Z' };
  const text = signedText(decisionMessage({ namespace: 'default', workflowId, runId }, ARGS, fields));
  return { ...fields, signature: sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64') };
};

/** A `checkDecisionInSandbox` run started with `input` that completed in its first workflow task. */
function completedRunHistory(input: unknown) {
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const payload = (value: unknown) => ({ metadata: { encoding: b64('json/plain') }, data: b64(JSON.stringify(value)) });
  const taskQueue = { name: 'sandbox', kind: 'TASK_QUEUE_KIND_NORMAL' };
  const event = (eventId: number, eventType: string, attributes: Record<string, unknown>) => ({
    eventId: String(eventId),
    eventTime: '2026-01-01T00:00:00Z',
    eventType: `EVENT_TYPE_${eventType}`,
    ...attributes,
  });
  return historyFromJSON({
    events: [
      event(1, 'WORKFLOW_EXECUTION_STARTED', {
        workflowExecutionStartedEventAttributes: {
          workflowType: { name: 'checkDecisionInSandbox' },
          taskQueue,
          input: { payloads: [payload(input)] },
          workflowTaskTimeout: '10s',
          attempt: 1,
          workflowId: WORKFLOW_ID,
          firstExecutionRunId: FIRST_RUN_ID,
          originalExecutionRunId: FIRST_RUN_ID,
        },
      }),
      event(2, 'WORKFLOW_TASK_SCHEDULED', { workflowTaskScheduledEventAttributes: { taskQueue, startToCloseTimeout: '10s', attempt: 1 } }),
      event(3, 'WORKFLOW_TASK_STARTED', { workflowTaskStartedEventAttributes: { scheduledEventId: '2' } }),
      event(4, 'WORKFLOW_TASK_COMPLETED', { workflowTaskCompletedEventAttributes: { scheduledEventId: '2', startedEventId: '3' } }),
      event(5, 'WORKFLOW_EXECUTION_COMPLETED', {
        workflowExecutionCompletedEventAttributes: {
          result: { payloads: [payload('accepted')] },
          workflowTaskCompletedEventId: '4',
        },
      }),
    ],
  });
}

describe('checkSignature in the workflow sandbox', () => {
  let workflowBundle: WorkflowBundle;
  beforeAll(async () => {
    quietTemporalLogs();
    workflowBundle = await bundleWorkflowCode({
      workflowsPath: path.join(__dirname, 'fixtures', 'check-decision-workflow.ts'),
      logger: new DefaultLogger('WARN'),
    });
  });

  it('bundles, and accepts a decision signed for this run', async () => {
    const history = completedRunHistory({ registry, decision: signedFor(WORKFLOW_ID), callArguments: ARGS });
    await expect(Worker.runReplayHistory({ workflowBundle }, history, WORKFLOW_ID)).resolves.toBeUndefined();
  });

  it('refuses a decision signed for another run (so the check really ran)', async () => {
    const history = completedRunHistory({ registry, decision: signedFor('another-run'), callArguments: ARGS });
    await expect(Worker.runReplayHistory({ workflowBundle }, history, WORKFLOW_ID)).rejects.toThrow(/bad signature for ana/);
  });

  it('refuses a decision signed for an earlier run under the same workflow id, and for other arguments', async () => {
    const earlier = completedRunHistory({ registry, decision: signedFor(WORKFLOW_ID, 'an-earlier-run'), callArguments: ARGS });
    await expect(Worker.runReplayHistory({ workflowBundle }, earlier, WORKFLOW_ID)).rejects.toThrow(/bad signature for ana/);
    const otherArgs = completedRunHistory({ registry, decision: signedFor(WORKFLOW_ID), callArguments: { command: 'rm -rf /' } });
    await expect(Worker.runReplayHistory({ workflowBundle }, otherArgs, WORKFLOW_ID)).rejects.toThrow(/bad signature for ana/);
  });
});
