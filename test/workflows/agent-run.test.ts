import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAgentTestbed } from '../support/agent-testbed';
import { z } from 'zod';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { defineTool, type Tool } from '../../src/runtime/tools/tool-definition';
import { statusQuery } from '../../src/contract/agent-run-api';
import { CONTINUE_NUDGE } from '../../src/workflows/agent-run';
import type { ToolResultBlock } from '../../src/contract/messages';
import { runFailure, waitFor, withAgentWorker } from '../support/agent-run-harness';
import { reply, text, toolCall, type FakeRequest } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

const complete = (summary = 'done') => reply(toolCall('complete_task', { summary, status: 'success', next_steps: 'nothing' }));

/** The last message of a request: the tool results (or nudge) the workflow sent after the previous turn. */
function lastUserContent(request: FakeRequest | undefined) {
  const last = request?.body.messages.at(-1);
  expect(last?.role).toBe('user');
  return last!.content;
}

function toolResults(request: FakeRequest | undefined): ToolResultBlock[] {
  const content = lastUserContent(request);
  expect(Array.isArray(content)).toBe(true);
  return content as unknown as ToolResultBlock[];
}

describe('agentRun', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;
  const harness = bed.harness;

  it('completes when the agent calls complete_task, with the completion, iterations and summed usage', async () => {
    const task = uniqueId('complete');
    fake.script(task, [
      reply(toolCall('list_files', {})).withUsage({ input_tokens: 120, output_tokens: 30 }),
      reply(toolCall('complete_task', { summary: 'Listed the files', status: 'partial', next_steps: 'read them' })).withUsage({
        input_tokens: 200,
        output_tokens: 15,
      }),
    ]);
    const result = await withAgentWorker(harness(), async ({ start }) => (await start({ agent: 'general', task })).result());
    expect(result.status).toBe('completed');
    expect(result.completion).toEqual({ summary: 'Listed the files', status: 'partial', next_steps: 'read them' });
    expect(result.iterations).toBe(2);
    expect(result.usage).toMatchObject({ inputTokens: 320, outputTokens: 45 });
    expect(result.agent).toBe('general');
    expect(fake.requestsFor(task).map((r) => r.index)).toEqual([0, 1]);
  });

  it('stops at the iteration cap with status max_iterations and no completion', async () => {
    const task = uniqueId('cap');
    const look = reply(toolCall('list_files', {}));
    fake.script(task, [look, look, look, look, look]);
    const result = await withAgentWorker(harness(), async ({ start }) =>
      (await start({ agent: 'general', task, maxIterations: 3 })).result(),
    );
    expect(result.status).toBe('max_iterations');
    expect(result.completion).toBeUndefined();
    expect(result.iterations).toBe(3);
    expect(fake.requestsFor(task)).toHaveLength(3);
  });

  it('does not treat a text-only turn as completion: the model is told to continue', async () => {
    const task = uniqueId('text-only');
    fake.script(task, [reply(text('I believe the work is finished.')), complete('now really done')]);
    const result = await withAgentWorker(harness(), async ({ start }) => (await start({ agent: 'general', task })).result());
    expect(result.status).toBe('completed');
    expect(result.completion?.summary).toBe('now really done');
    expect(result.iterations).toBe(2);
    const second = fake.requestsFor(task)[1];
    expect(second?.body.messages.at(-2)).toMatchObject({ role: 'assistant' });
    expect(lastUserContent(second)).toBe(CONTINUE_NUDGE);
    expect(CONTINUE_NUDGE).toContain('complete_task');
  });

  it('counts a text-only turn toward the cap', async () => {
    const task = uniqueId('text-cap');
    fake.script(task, [reply(text('Thinking out loud.')), complete()]);
    const result = await withAgentWorker(harness(), async ({ start }) =>
      (await start({ agent: 'general', task, maxIterations: 1 })).result(),
    );
    expect(result.status).toBe('max_iterations');
    expect(result.iterations).toBe(1);
    expect(fake.requestsFor(task)).toHaveLength(1);
  });

  it('reports bad tool arguments and an unknown tool to the model as error results, and the run still completes', async () => {
    const task = uniqueId('bad-calls');
    fake.script(task, [
      reply(toolCall('read_file', { path: 42 }), toolCall('delete_everything', { really: true })),
      complete('recovered'),
    ]);
    const result = await withAgentWorker(harness(), async ({ start }) => (await start({ agent: 'general', task })).result());
    expect(result.status).toBe('completed');
    const [badArgs, unknown] = toolResults(fake.requestsFor(task)[1]);
    expect(badArgs).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_0_0', is_error: true });
    expect(badArgs?.content).toMatch(/Invalid arguments for read_file/);
    expect(badArgs?.content).toMatch(/path/);
    expect(unknown).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_0_1', is_error: true });
    expect(unknown?.content).toMatch(/Unknown tool "delete_everything"/);
    // The message names what the model can use instead.
    expect(unknown?.content).toMatch(/read_file.*complete_task/);
  });

  it('reports invalid complete_task arguments to the model instead of ending the run', async () => {
    const task = uniqueId('bad-completion');
    fake.script(task, [reply(toolCall('complete_task', { summary: 'all good', status: 'done' })), complete('fixed the status')]);
    const result = await withAgentWorker(harness(), async ({ start }) => (await start({ agent: 'general', task })).result());
    expect(result.completion).toEqual({ summary: 'fixed the status', status: 'success', next_steps: 'nothing' });
    expect(result.iterations).toBe(2);
    const [invalid] = toolResults(fake.requestsFor(task)[1]);
    expect(invalid).toMatchObject({ tool_use_id: 'toolu_0_0', is_error: true });
    expect(invalid?.content).toMatch(/Invalid arguments for complete_task:\n- status:/);
  });

  it('reports a tool that throws to the model as an error result, and the run goes on', async () => {
    const task = uniqueId('throws');
    const explode = defineTool({
      name: 'explode',
      description: 'Always fails.',
      scope: 'read',
      inputSchema: z.object({}),
      execute: async () => {
        throw new Error('the fuse was lit');
      },
    });
    const agents = [{ ...builtinAgents[0]!, tools: ['explode'] }];
    fake.script(task, [reply(toolCall('explode', {})), complete('gave up on it')]);
    const result = await withAgentWorker({ ...harness(), agents, tools: [explode as Tool] }, async ({ start }) =>
      (await start({ agent: 'general', task })).result(),
    );
    expect(result.status).toBe('completed');
    expect(toolResults(fake.requestsFor(task)[1])).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_0_0', is_error: true, content: 'explode failed: the fuse was lit' },
    ]);
  });

  it('runs every tool_use block of a turn and returns all results in one message, in order', async () => {
    const task = uniqueId('several');
    fake.script(task, [
      reply(
        text('Three things at once.'),
        toolCall('read_file', { path: 'notes.md' }),
        toolCall('list_files', {}),
        toolCall('search_files', { query: 'needle' }),
      ),
      complete(),
    ]);
    await withAgentWorker(harness(), async ({ start, workspace }) => {
      await writeFile(path.join(workspace, 'notes.md'), 'first line\nthe needle is here\n');
      return (await start({ agent: 'general', task })).result();
    });
    const second = fake.requestsFor(task)[1];
    // Exactly one user message follows the assistant turn.
    expect(second?.body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const results = toolResults(second);
    expect(results.map((r) => r.tool_use_id)).toEqual(['toolu_0_0', 'toolu_0_1', 'toolu_0_2']);
    expect(results.every((r) => r.is_error === undefined)).toBe(true);
    expect(results[0]?.content).toContain('the needle is here');
    expect(results[1]?.content).toContain('notes.md');
    expect(results[2]?.content).toMatch(/notes\.md:2: the needle is here/);
  });

  it('fails an invalid input at once with a non-retryable InvalidRunInput, without workflow task retries', async () => {
    await withAgentWorker(harness(), async ({ client, taskQueue }) => {
      // Straight to the server: startRun would refuse this input before the workflow sees it.
      const handle = await client.workflow.start('agentRun', { taskQueue, workflowId: uniqueId('bad-input'), args: [{ agent: 'general' }] });
      const { failure, elapsedMs } = await runFailure(handle.result());
      expect(failure.type).toBe('InvalidRunInput');
      expect(failure.nonRetryable).toBe(true);
      expect(failure.message).toMatch(/task/);
      expect(elapsedMs).toBeLessThan(5_000);
      const history = await handle.fetchHistory();
      const taskFailures = history.events?.filter((e) => e.workflowTaskFailedEventAttributes) ?? [];
      expect(taskFailures).toHaveLength(0);
    });
  });

  it('fails an unknown agent at once with a non-retryable UnknownAgent that lists the known agents', async () => {
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'no-such-agent', task: uniqueId('unknown-agent') });
      const { failure, elapsedMs } = await runFailure(handle.result());
      expect(failure.type).toBe('UnknownAgent');
      expect(failure.nonRetryable).toBe(true);
      expect(failure.message).toContain('no-such-agent');
      expect(failure.message).toMatch(/general, reader/);
      expect(elapsedMs).toBeLessThan(5_000);
      const history = await handle.fetchHistory();
      expect(history.events?.filter((e) => e.workflowTaskFailedEventAttributes) ?? []).toHaveLength(0);
      // One attempt of the resolving activity: the failure is not retried either.
      const started = history.events?.find((e) => e.activityTaskStartedEventAttributes);
      expect(started?.activityTaskStartedEventAttributes?.attempt).toBe(1);
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('answers the status query while a tool runs and after the run has closed', async () => {
    const task = uniqueId('status');
    // The command waits for the test's go-ahead, so it is surely still running while the test looks.
    const command = 'while [ ! -e go ]; do sleep 0.05; done';
    fake.script(task, [reply(toolCall('shell', { command })), complete('slept')]);
    await withAgentWorker(harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task, maxIterations: 7, toolApproval: { alwaysApproved: ['shell'] } });
      const live = await waitFor(async () => {
        const status = await handle.query(statusQuery);
        return status.events.some((e) => e.name === 'toolStarted') ? status : undefined;
      }, 'the shell call to start');
      expect(live.phase).toBe('running');
      expect(live.iteration).toBe(1);
      expect(live.maxIterations).toBe(7);
      expect(live.agent).toBe('general');
      expect(live.usage.inputTokens).toBe(100);
      expect(live.completion).toBeUndefined();
      // The tool is still running: it is listed as running, with no outcome yet.
      expect(live.recentToolCalls).toMatchObject([{ tool: 'shell', outcome: 'running' }]);

      const heldFrom = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await writeFile(path.join(workspace, 'go'), '');
      const heldMs = Date.now() - heldFrom;
      await handle.result();
      const closed = await handle.query(statusQuery);
      expect(closed.phase).toBe('completed');
      expect(closed.iteration).toBe(2);
      expect(closed.usage.inputTokens).toBe(200);
      expect(closed.completion?.summary).toBe('slept');
      expect(closed.recentToolCalls).toMatchObject([
        { tool: 'shell', outcome: 'success', summary: `shell: ${command}`, iteration: 1 },
        { tool: 'complete_task', outcome: 'success', iteration: 2 },
      ]);
      // The duration covers at least the time the test held the command back.
      expect(closed.recentToolCalls[0]?.durationMs).toBeGreaterThanOrEqual(heldMs);
    });
  });
});
