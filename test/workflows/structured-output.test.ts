// Typed results (`outputSchema`) and the seeds' completion tools (`completionTools`), on a real
// server with the model faked over HTTP.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, text, toolCall } from '../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../support/temporal';
import { agentctl } from '../client/agentctl-process';

const general = builtinAgents.find((a) => a.name === 'general')!;
const agent = (name: string, extra: Partial<AgentDefinitionInput>): AgentDefinitionInput => ({ ...general, name, ...extra });

const verdictSchema = {
  type: 'object',
  required: ['kind', 'severity'],
  additionalProperties: false,
  properties: { kind: { enum: ['bug', 'feature'] }, severity: { type: 'integer', minimum: 1, maximum: 5 } },
};

/** The tool results of the request's last message, by tool_use id. */
function lastResults(body: { messages: unknown[] }) {
  const last = body.messages.at(-1) as { content: { type: string; tool_use_id: string; content: string; is_error?: boolean }[] };
  return last.content.filter((b) => b.type === 'tool_result');
}

const bed = useAgentTestbed({
  agents: [
    ...builtinAgents,
    agent('typed', { outputSchema: z.object({ files: z.array(z.string()), count: z.number().int() }) }),
    agent('peekaboo', { completionTools: ['task_completed'] }),
    agent('drowcoder', { completionTools: ['attempt_completion'] }),
  ],
});
const fake = bed.fake;

describe('outputSchema', () => {

  it('sends an invalid output back to the model with the problems, and ends with the valid one in the result', async () => {
    const task = uniqueId('typed-run');
    fake.script(task, [
      reply(toolCall('complete_task', { summary: 'triaged', status: 'success', output: { kind: 'bug', severity: 9 } }, 'c1')),
      reply(toolCall('complete_task', { summary: 'triaged', status: 'success' }, 'c2')),
      reply(toolCall('complete_task', { summary: 'triaged', status: 'success', output: { kind: 'bug', severity: 2 } }, 'c3')),
    ]);
    const { result, cli } = await withAgentWorker(bed.harness(), async ({ start, taskQueue }) => {
      const handle = await start({ agent: 'general', task, outputSchema: verdictSchema });
      const result = await handle.result();
      // `agentctl result --json` prints it.
      return { result, cli: await agentctl(['result', handle.workflowId, '--json'], { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue }) };
    });
    expect(result.status).toBe('completed');
    expect(result.output).toEqual({ kind: 'bug', severity: 2 });
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ kind: 'completed', result: { output: { kind: 'bug', severity: 2 } } });
    expect(result.iterations).toBe(3);

    const [first, second, third] = fake.requestsFor(task);
    // The model is shown the schema on the completion tool.
    const tool = first!.body.tools!.find((t) => (t as { name: string }).name === 'complete_task') as { input_schema: { properties: Record<string, unknown> } };
    expect(tool.input_schema.properties.output).toMatchObject({ required: ['kind', 'severity'] });
    const [tooHigh] = lastResults(second!.body as { messages: unknown[] });
    expect(tooHigh).toMatchObject({ tool_use_id: 'c1', is_error: true });
    expect(tooHigh!.content).toMatch(/not complete yet.*output.*does not match/s);
    expect(tooHigh!.content).toMatch(/severity/);
    const [missing] = lastResults(third!.body as { messages: unknown[] });
    expect(missing).toMatchObject({ tool_use_id: 'c2', is_error: true });
    expect(missing!.content).toContain('- output: is required');
  });

  it("checks an agent's zod outputSchema the same way", async () => {
    const task = uniqueId('typed-agent');
    fake.script(task, [
      reply(toolCall('complete_task', { summary: 's', status: 'success', output: { files: ['a'], count: 1.5 } }, 'z1')),
      reply(toolCall('complete_task', { summary: 's', status: 'success', output: { files: ['a', 'b'], count: 2 } }, 'z2')),
    ]);
    const result = await withAgentWorker(bed.harness(), async ({ start }) => (await start({ agent: 'typed', task })).result());
    expect(result.output).toEqual({ files: ['a', 'b'], count: 2 });
    const [bad] = lastResults(fake.requestsFor(task)[1]!.body as { messages: unknown[] });
    expect(bad).toMatchObject({ tool_use_id: 'z1', is_error: true });
    expect(bad!.content).toMatch(/count/);
  });

  it('refuses an outputSchema that is not a usable JSON Schema before starting the run', async () => {
    await withAgentWorker(bed.harness(), async ({ start }) => {
      await expect(start({ agent: 'general', task: uniqueId('bad-schema'), outputSchema: { type: 'objekt' } })).rejects.toThrow(/outputSchema/);
    });
  });
});

describe('completionTools', () => {

  it('task_completed ends a run; success:false maps to status partial; the prompt and tools name it, not complete_task', async () => {
    const task = uniqueId('peekaboo');
    fake.script(task, [
      reply(text('Looking.')),
      reply(toolCall('complete_task', { summary: 'x', status: 'success' }, 'wrong')),
      reply(toolCall('task_completed', { summary: 'Half of it', success: false, next_steps: ['finish', 'test'] })),
    ]);
    const result = await withAgentWorker(bed.harness(), async ({ start }) => (await start({ agent: 'peekaboo', task })).result());
    expect(result.status).toBe('completed');
    expect(result.completion).toEqual({ summary: 'Half of it', status: 'partial', next_steps: 'finish\ntest' });
    const [first, second, third] = fake.requestsFor(task);
    const names = first!.body.tools!.map((t) => (t as { name: string }).name);
    expect(names).toContain('task_completed');
    expect(names).not.toContain('complete_task');
    expect(JSON.stringify(first!.body.system)).toContain('call task_completed');
    // A text-only turn is nudged towards the agent's own completion tool.
    expect(second!.body.messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('call task_completed') });
    // complete_task is not this agent's: an unknown tool, reported to the model.
    const [unknown] = lastResults(third!.body as { messages: unknown[] });
    expect(unknown).toMatchObject({ tool_use_id: 'wrong', is_error: true });
    expect(unknown!.content).toContain('Unknown tool "complete_task"');
  });

  it('attempt_completion ends a run with its result as the summary', async () => {
    const task = uniqueId('drowcoder');
    fake.script(task, [reply(toolCall('attempt_completion', { result: 'All tests pass.' }))]);
    const result = await withAgentWorker(bed.harness(), async ({ start }) => (await start({ agent: 'drowcoder', task })).result());
    expect(result.completion).toEqual({ summary: 'All tests pass.', status: 'success' });
    expect(fake.requestsFor(task)[0]!.body.tools!.map((t) => (t as { name: string }).name)).toContain('attempt_completion');
  });

  it('task_completed with an output schema: the output field is required there too', async () => {
    const task = uniqueId('peekaboo-typed');
    fake.script(task, [
      reply(toolCall('task_completed', { summary: 'done', success: true }, 't1')),
      reply(toolCall('task_completed', { summary: 'done', success: true, output: { kind: 'feature', severity: 1 } }, 't2')),
    ]);
    const result = await withAgentWorker(bed.harness(), async ({ start }) => (await start({ agent: 'peekaboo', task, outputSchema: verdictSchema })).result());
    expect(result).toMatchObject({ status: 'completed', output: { kind: 'feature', severity: 1 }, completion: { status: 'success' } });
    expect(lastResults(fake.requestsFor(task)[1]!.body as { messages: unknown[] })[0]).toMatchObject({ tool_use_id: 't1', is_error: true });
  });
});
