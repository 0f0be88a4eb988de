import type { WorkflowBundle } from '@temporalio/worker';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleAgentWorkflows, runFailure, withAgentWorker } from '../support/agent-run-harness';
import { fail, reply, startFakeAnthropic, toolCall, type FakeAnthropic } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

const complete = reply(toolCall('complete_task', { summary: 'done', status: 'success' }));

describe('callModel', () => {
  let fake: FakeAnthropic;
  let workflowBundle: WorkflowBundle;
  const harness = () => ({ fake, workflowBundle });

  beforeAll(async () => {
    [fake, workflowBundle] = await Promise.all([startFakeAnthropic(), bundleAgentWorkflows()]);
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.close());

  const runToFailure = (task: string) =>
    withAgentWorker(harness(), async ({ start }) => runFailure((await start({ agent: 'general', task })).result()));

  it('retries 529 and 429 through the activity alone, honouring retry-after, then completes', async () => {
    const task = uniqueId('overloaded');
    fake.script(task, [fail(529), fail(429, { retryAfter: 1 }), complete]);
    const result = await withAgentWorker(harness(), async ({ start }) => (await start({ agent: 'general', task })).result());
    expect(result.status).toBe('completed');
    const attempts = fake.requestsFor(task).filter((r) => r.index === 0);
    // Three requests, not more: the SDK does not retry on its own (that would multiply attempts).
    expect(attempts).toHaveLength(3);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(950);
    // The failed attempts cost nothing: usage counts the one answered call.
    expect(result.usage.inputTokens).toBe(100);
    expect(fake.errors).toEqual([]);
  });

  it('waits as long as retry-after asks even when that exceeds the policy backoff', async () => {
    const task = uniqueId('rate-limited');
    // Without retry-after the second retry would come after the policy's 2 s backoff.
    fake.script(task, [fail(529), fail(429, { retryAfter: 3 }), complete]);
    const result = await withAgentWorker(harness(), async ({ start }) => (await start({ agent: 'general', task })).result());
    expect(result.status).toBe('completed');
    const attempts = fake.requestsFor(task);
    expect(attempts).toHaveLength(3);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(2_950);
  });

  it('ends the run within seconds on a 400, with a non-retryable ModelRequestRejected naming the status', async () => {
    const task = uniqueId('bad-request');
    fake.script(task, [fail(400)]);
    const { failure, elapsedMs } = await runToFailure(task);
    expect(failure.type).toBe('ModelRequestRejected');
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toMatch(/rejected the request with 400/);
    expect(failure.message).toContain('fake-anthropic: scripted 400');
    expect(elapsedMs).toBeLessThan(5_000);
    expect(fake.requestsFor(task)).toHaveLength(1);
  });

  it('ends the run within seconds on a 401, pointing at ANTHROPIC_API_KEY', async () => {
    const task = uniqueId('bad-key');
    fake.script(task, [fail(401)]);
    const { failure, elapsedMs } = await runToFailure(task);
    expect(failure.type).toBe('ModelRequestRejected');
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toMatch(/401/);
    expect(failure.message).toContain('ANTHROPIC_API_KEY');
    expect(elapsedMs).toBeLessThan(5_000);
    expect(fake.requestsFor(task)).toHaveLength(1);
  });
});
