import { describe, expect, it } from 'vitest';
import { useAgentTestbed } from '../../support/agent-testbed';
import { runFailure, waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { builtinAgents } from '../../../src/runtime/agents/builtin-agents';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { disconnect, fail, reply, text, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

const complete = reply(toolCall('complete_task', { summary: 'done', status: 'success' }));

describe('callModel', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;
  const harness = bed.harness;

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

  it('abandons a stream silent for AGENT_MODEL_IDLE_SECONDS and retries the call', async () => {
    const task = uniqueId('silent-stream');
    // The first attempt's answer starts, then goes quiet for 5 s between pieces: far past the 1 s
    // allowed. The retry gets the same answer at once.
    let attempt = 0;
    const answer = () => reply(text('thinking about it'), toolCall('complete_task', { summary: 'done', status: 'success' }));
    fake.script(task, [reply(() => ((attempt += 1) === 1 ? answer().chunked(1, 5_000) : answer()))]);
    const result = await withAgentWorker({ ...harness(), env: { AGENT_MODEL_IDLE_SECONDS: '1' } }, async ({ start }) => (await start({ agent: 'general', task })).result());
    expect(result).toMatchObject({ status: 'completed', completion: { summary: 'done' } });
    const attempts = fake.requestsFor(task);
    expect(attempts).toHaveLength(2);
    // Given up within a few seconds of going silent, not after the 5 s pause (nor the 120 s default).
    expect(attempts[1]!.at - attempts[0]!.at).toBeLessThan(4_900);
  });

  it('retries 500 and 503 (server errors), then completes', async () => {
    const task = uniqueId('server-error');
    fake.script(task, [fail(500), fail(503), complete]);
    const result = await withAgentWorker(harness(), async ({ start }) => (await start({ agent: 'general', task })).result());
    expect(result.status).toBe('completed');
    expect(fake.requestsFor(task)).toHaveLength(3);
  });

  it('retries when the connection drops without an answer (APIConnectionError), then completes', async () => {
    const task = uniqueId('dropped');
    fake.script(task, [disconnect(), disconnect(), complete]);
    const result = await withAgentWorker(harness(), async ({ start }) => (await start({ agent: 'general', task })).result());
    expect(result.status).toBe('completed');
    expect(fake.requestsFor(task)).toHaveLength(3);
  });

  it('waits as long as retry-after-ms asks on the first failure, beyond the policy\'s 1 s first backoff', async () => {
    const task = uniqueId('retry-after-ms');
    fake.script(task, [fail(529, { retryAfterMs: 3_000 }), complete]);
    const result = await withAgentWorker(harness(), async ({ start }) => (await start({ agent: 'general', task })).result());
    expect(result.status).toBe('completed');
    const attempts = fake.requestsFor(task);
    expect(attempts).toHaveLength(2);
    // Ignoring the header, the retry would come about 1 s later.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(2_950);
  });

  it('honours retry-after given as an HTTP date, beyond the policy\'s 1 s first backoff', async () => {
    const task = uniqueId('retry-after-date');
    // An HTTP date has whole seconds: four seconds ahead is at least three seconds of wait.
    fake.script(task, [fail(503, { retryAfter: () => new Date(Date.now() + 4_000).toUTCString() }), complete]);
    const result = await withAgentWorker(harness(), async ({ start }) => (await start({ agent: 'general', task })).result());
    expect(result.status).toBe('completed');
    const attempts = fake.requestsFor(task);
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(2_900);
  });

  const notFound = { type: 'error', error: { type: 'not_found_error', message: 'model: claude-nope' } };
  it.each([
    { status: 400, body: undefined, says: 'fake-anthropic: scripted 400', advice: 'check the agent definition and tool schemas' },
    { status: 401, body: undefined, says: 'authentication_error', advice: 'check ANTHROPIC_API_KEY' },
    { status: 403, body: undefined, says: 'fake-anthropic: scripted 403', advice: 'the API key may not use this model or feature' },
    { status: 404, body: notFound, says: 'not_found_error: model: claude-nope', advice: 'check AGENT_MODEL_* and ANTHROPIC_BASE_URL' },
    { status: 413, body: undefined, says: 'fake-anthropic: scripted 413', advice: 'the request is too large; lower the agent context budget' },
  ])('ends the run within seconds on a $status, with a non-retryable ModelRequestRejected that says what to fix', async ({ status, body, says, advice }) => {
    const task = uniqueId(`rejected-${status}`);
    fake.script(task, [fail(status, { body })]);
    const { failure, elapsedMs } = await runToFailure(task);
    expect(failure.type).toBe('ModelRequestRejected');
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toContain(`rejected the request with ${status}`);
    expect(failure.message).toContain(says);
    expect(failure.message).toContain(advice);
    expect(elapsedMs).toBeLessThan(5_000);
    // Not retried by either layer.
    expect(fake.requestsFor(task)).toHaveLength(1);
  });

  it('judges a per-run agent\'s write targets against its own folder, not the workspace root (issue 18, bypass 10)', async () => {
    const task = uniqueId('per-run-write');
    const general = builtinAgents.find((a) => a.name === 'general')!;
    await withAgentWorker({ ...harness(), agents: [{ ...general, name: 'isolated', workspace: 'per-run' }] }, async ({ start, workspace }) => {
      // Inside the workspace root, but outside the run's own folder runs/<id>: a person must decide.
      fake.script(task, [reply(toolCall('shell', { command: `echo planted > ${workspace}/shared.txt` })), complete]);
      const handle = await start({ agent: 'isolated', task, toolApproval: { alwaysApproved: [{ tool: 'shell', command: 'echo *' }] } });
      const parked = await waitForApprovals(handle);
      expect(parked.pendingApprovals[0]!.reason).toMatch(/writes outside the workspace/);
      expect(parked.events.filter((e) => e.name === 'toolStarted')).toEqual([]);
      await handle.terminate('test over');
      expect(existsSync(path.join(workspace, 'shared.txt'))).toBe(false);
    });
  });
});
