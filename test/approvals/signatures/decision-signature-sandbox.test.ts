// Proves that the signature check runs inside Temporal's workflow sandbox, where Node built-ins,
// Buffer and WebCrypto are not to be relied on. A hand-written history of a run that completed in
// one workflow task is replayed against a tiny workflow that calls checkDecisionSignature: replay
// runs the real bundle in the real sandbox and needs no Temporal server. When the check refuses, the
// workflow fails its task instead of completing as the history says, so replay throws.
import { generateKeyPairSync, sign } from 'node:crypto';
import * as path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundle } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { decisionSigningText, type SignedDecisionFields } from '../../../src/approvals/signatures/decision-signature';
import { quietTemporalLogs } from '../../support/agent-run-harness';

const WORKFLOW_ID = 'sandbox-run-1';
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const registry = { ana: publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex') };

const signedFor = (workflowId: string): SignedDecisionFields => {
  const fields = { callId: 'call-1', decision: 'approve', approver: 'ana' };
  const text = decisionSigningText({ workflowId, ...fields });
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

describe('checkDecisionSignature in the workflow sandbox', () => {
  let workflowBundle: WorkflowBundle;
  beforeAll(async () => {
    quietTemporalLogs();
    workflowBundle = await bundleWorkflowCode({
      workflowsPath: path.join(__dirname, 'fixtures', 'check-decision-workflow.ts'),
      logger: new DefaultLogger('WARN'),
    });
  });

  it('bundles, and accepts a decision signed for this run', async () => {
    const history = completedRunHistory({ registry, decision: signedFor(WORKFLOW_ID) });
    await expect(Worker.runReplayHistory({ workflowBundle }, history, WORKFLOW_ID)).resolves.toBeUndefined();
  });

  it('refuses a decision signed for another run (so the check really ran)', async () => {
    const history = completedRunHistory({ registry, decision: signedFor('another-run') });
    await expect(Worker.runReplayHistory({ workflowBundle }, history, WORKFLOW_ID)).rejects.toThrow(/bad signature for approver ana/);
  });
});
