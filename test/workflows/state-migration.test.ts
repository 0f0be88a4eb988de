import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { startRun } from '../../src/client/start-run';
import { FailureType } from '../../src/contract/errors';
import { approvalSignal, closeThreadUpdate, statusQuery } from '../../src/contract/agent-run-api';
import type { RunStateV1 } from '../../src/workflows/compat/migrations/run-state-v1';
import type { RunState } from '../../src/core/machine/run-state';
import { waitForApprovals, waitForPhase, withAgentWorker } from '../support/agent-run-harness';
import { reply, text, toolCall } from '../support/fake-anthropic';
import { useFakeModel } from '../support/agent-testbed';
import { uniqueId } from '../support/temporal';
import { brokenToolPairs, callId, stepScript, stepTool } from '../support/step-script';

/** A checkpoint as a version-1 worker wrote it when it continued as new, two steps into its task. */
const fixture = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/run-state-v1.json'), 'utf8')) as RunStateV1;

const legacyAgent: AgentDefinitionInput = {
  name: 'legacy',
  description: 'The agent the fixture was written for.',
  modelTier: 'balanced',
  tools: ['step'],
  systemPrompt: 'You work in steps.',
  maxIterations: 10,
};

/**
 * A version-3 checkpoint taken with the checkpoint query (scripts/capture-run-state.ts) from a thread
 * parked on a write only `ana` may approve, and the agent it was taken from.
 */
const v3 = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/run-state-v3.json'), 'utf8')) as RunState;
const v3Agent: AgentDefinitionInput = {
  name: v3.agent.name,
  description: 'The agent the version-3 fixture was captured with.',
  modelTier: 'balanced',
  tools: ['read_file', 'write_file', 'list_files', 'step'],
  systemPrompt: 'You produce fixture histories.',
  maxIterations: 30,
};

/** Steps 2 and 3 are left when the checkpoint was taken; then the agent completes. */
const plan = (step: number) =>
  step <= 3
    ? reply(toolCall('step', { n: step }, callId(step)))
    : reply(toolCall('complete_task', { summary: 'legacy steps finished', status: 'success' }, callId(step)));

describe('run state migration', () => {
  const bed = useFakeModel();
  const fake = bed.fake;

  it('continues a version-1 checkpoint to completion', async () => {
    fake.script(fixture.task, stepScript(plan));
    await withAgentWorker({ ...bed.harness(), agents: [legacyAgent], tools: [stepTool] }, async ({ client, taskQueue }) => {
      // A continue-as-new keeps the workflow id, so the checkpoint and the run it lands in share it.
      const workflowId = uniqueId('legacy');
      const handle = await startRun(
        client,
        { agent: fixture.agent.name, task: fixture.task, checkpoint: { ...fixture, workflowId } },
        { taskQueue, workflowId },
      );
      const result = await handle.result();
      expect(result).toMatchObject({ status: 'completed', completion: { status: 'success' }, iterations: 5, workflowId });

      const requests = fake.requestsFor(fixture.task);
      expect(requests).toHaveLength(3);
      // The migrated conversation goes to the model whole: a version-1 worker kept no store.
      expect(requests[0]!.body.messages.slice(0, fixture.messages.length)).toEqual(fixture.messages);
      for (const request of requests) expect(brokenToolPairs(request.body.messages)).toEqual([]);
      expect(result.usage.inputTokens).toBe(fixture.usage.inputTokens + 100 * requests.length);

      const status = await handle.query(statusQuery);
      expect(status.maxIterations).toBe(fixture.maxIterations);
      expect(status.recentToolCalls.map((c) => c.summary)).toContain('step: {"n":3}');
    });
    expect(fake.errors).toEqual([]);
  });

  it('fails clearly on a checkpoint version it does not know', async () => {
    await withAgentWorker({ ...bed.harness(), agents: [legacyAgent], tools: [stepTool] }, async ({ start }) => {
      const handle = await start({ agent: 'legacy', task: 'from the future', checkpoint: { ...fixture, schemaVersion: 99 } });
      const error = await handle.result().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(WorkflowFailedError);
      const cause = (error as WorkflowFailedError).cause;
      expect(cause).toBeInstanceOf(ApplicationFailure);
      expect(cause).toMatchObject({ type: FailureType.UnsupportedStateVersion, nonRetryable: true });
      expect(cause?.message).toContain('schemaVersion 99');
    });
  });

  it('continues a version-3 checkpoint parked on an approval: the same call waits, for the same approver, then runs', async () => {
    const parked = v3.turn!.calls[0]!;
    // The fake picks a reply by the assistant messages a request carries: the first two were answered
    // before the checkpoint was taken (as scripts/capture-run-state.ts scripted them), the third is new.
    fake.script(v3.input.task, [
      reply(toolCall('step', { n: 1 })),
      reply(toolCall('write_file', { path: 'out.txt', content: 'x' })),
      reply(text('Written.'), toolCall('complete_task', { summary: 'wrote out.txt', status: 'success' })),
    ]);
    await withAgentWorker({ ...bed.harness(), agents: [v3Agent], tools: [stepTool] }, async ({ client, taskQueue, workspace }) => {
      const workflowId = uniqueId('v3');
      const handle = await startRun(client, { agent: v3.agent.name, task: v3.input.task, checkpoint: { ...v3, workflowId } }, { taskQueue, workflowId });
      const status = await waitForApprovals(handle);
      // The fixture keeps version 3's call shape: the parked call's request time is in its verdict.
      expect(status.pendingApprovals).toEqual([expect.objectContaining({ callId: parked.id, tool: 'write_file', approvers: ['ana'], requestedAt: (parked as unknown as { verdict: { requestedAt: string } }).verdict.requestedAt })]);
      expect(status.iteration).toBe(v3.iteration);

      await handle.signal(approvalSignal, { callId: parked.id, decision: 'approve', approver: 'ana' });
      await waitForPhase(handle, 'idle');
      expect(await readFile(path.join(workspace, 'out.txt'), 'utf8')).toBe('x');
      await handle.executeUpdate(closeThreadUpdate, { args: [] });
      expect(await handle.result()).toMatchObject({ status: 'completed', completion: { summary: 'wrote out.txt' }, workflowId });

      // The model saw the checkpoint's conversation whole, then the write's result.
      const [request] = fake.requestsFor(v3.input.task);
      expect(request!.body.messages.slice(0, v3.messages.length)).toEqual(v3.messages);
      expect(brokenToolPairs(request!.body.messages)).toEqual([]);
    });
    expect(fake.errors).toEqual([]);
    expect(fake.requestsFor(v3.input.task)).toHaveLength(1);
  });
});
