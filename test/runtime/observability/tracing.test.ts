// One trace per run, with GenAI spans for every model and tool call, across continue-as-new: a real
// worker and server, Temporal's OpenTelemetry interceptors, and the SDK's in-memory exporter.
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { bundleWorkflowCode, DefaultLogger, type WorkflowBundle } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { startRun } from '../../../src/client/start-run';
import { startTracing, tracingWorkflowModules } from '../../../src/runtime/observability/tracing-provider';
import { WORKFLOWS_PATH } from '../../../src/runtime/worker-setup/create-agent-worker';
import { withAgentWorker } from '../../support/agent-run-harness';
import { startFakeAnthropic, reply, toolCall, type FakeAnthropic } from '../../support/fake-anthropic';
import { runChain } from '../../support/run-chain';
import { callId, stepScript, stepTool } from '../../support/step-script';
import { uniqueId } from '../../support/temporal';

const STEPS = 12;
const agent: AgentDefinitionInput = { name: 'traced', description: 'Steps, traced.', modelTier: 'balanced', tools: ['step'], systemPrompt: 'You work in steps.', maxIterations: 100 };

describe('tracing', () => {
  const exporter = new InMemorySpanExporter();
  const tracing = startTracing(new SimpleSpanProcessor(exporter), 'durable-agent-test');
  let fake: FakeAnthropic;
  let workflowBundle: WorkflowBundle;
  beforeAll(async () => {
    [fake, workflowBundle] = await Promise.all([
      startFakeAnthropic(),
      bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: tracingWorkflowModules(), logger: new DefaultLogger('WARN') }),
    ]);
    return () => fake.close();
  });

  it('makes one trace of a run that continues as new, with a chat span per model call and an execute_tool span per tool call', async () => {
    const task = uniqueId('traced');
    fake.script(task, stepScript((step) => (step < STEPS ? reply(toolCall('step', { n: step }, callId(step))) : reply(toolCall('complete_task', { summary: 'traced', status: 'success' }, callId(step))))));
    const { workflowId, links } = await withAgentWorker({ fake, workflowBundle, agents: [agent], tools: [stepTool], tracing }, async (h) => {
      const handle = await startRun(h.client, { agent: 'traced', task, historyBudget: { maxEvents: 60 } }, { taskQueue: h.taskQueue, workflowId: uniqueId('traced-run') });
      expect(await handle.result()).toMatchObject({ status: 'completed', iterations: STEPS + 1 });
      return { workflowId: handle.workflowId, links: (await runChain(h.client, handle.workflowId, handle.firstExecutionRunId)).length };
    });
    expect(links).toBeGreaterThanOrEqual(2);

    const spans = exporter.getFinishedSpans();
    const names = (list: ReadableSpan[]) => [...new Set(list.map((s) => s.name))].sort().join(', ');
    const start = spans.find((s) => s.name === 'StartWorkflow:agentRun' && JSON.stringify(s.attributes).includes(workflowId));
    expect(start, `spans: ${names(spans)}`).toBeDefined();
    const trace = spans.filter((s) => s.spanContext().traceId === start!.spanContext().traceId);

    // Every link of the chain runs in the start's trace.
    expect(trace.filter((s) => s.name === 'RunWorkflow:agentRun').length, names(trace)).toBe(links);
    const chats = trace.filter((s) => s.name.startsWith('chat '));
    expect(chats).toHaveLength(STEPS + 1);
    for (const chat of chats) {
      expect(chat.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.agent.name': 'traced' });
      for (const key of ['gen_ai.request.model', 'gen_ai.response.model']) expect(typeof chat.attributes[key]).toBe('string');
      for (const key of ['gen_ai.usage.input_tokens', 'gen_ai.usage.output_tokens', 'gen_ai.usage.cache_read.input_tokens', 'gen_ai.usage.cache_creation.input_tokens']) {
        expect(typeof chat.attributes[key], key).toBe('number');
      }
      expect(chat.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
      // Inside the activity's own span.
      expect(trace.find((s) => s.spanContext().spanId === chat.parentSpanId)?.name).toBe('RunActivity:callModel');
    }
    const tools = trace.filter((s) => s.name === 'execute_tool step');
    expect(tools).toHaveLength(STEPS);
    for (const tool of tools) {
      expect(tool.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'step', 'durable_agent.tool.execution': 'local', 'durable_agent.tool.success': true });
      expect(String(tool.attributes['gen_ai.tool.call.id'])).toMatch(/^toolu_s\d+_0$/);
    }
    // Nothing of this run leaked into another trace.
    expect(spans.filter((s) => s.name.startsWith('chat ') && s.attributes['durable_agent.workflow_id'] === workflowId && !trace.includes(s))).toEqual([]);
  });

  it('puts a sub-agent (a child run) in its parent\'s trace, with its own model and tool spans', async () => {
    const task = uniqueId('traced-parent');
    const subTask = uniqueId('traced-child');
    const child: AgentDefinitionInput = { ...agent, name: 'traced-child', description: 'Does one step.' };
    const parent: AgentDefinitionInput = { ...agent, name: 'traced-parent', tools: [], subAgents: ['traced-child'] };
    fake.script(task, [reply(toolCall('delegate_task', { agent: 'traced-child', task: subTask })), reply(toolCall('complete_task', { summary: 'parent done', status: 'success' }))]);
    fake.script(subTask, [reply(toolCall('step', { n: 1 })), reply(toolCall('complete_task', { summary: 'child done', status: 'success' }))]);
    const workflowId = await withAgentWorker({ fake, workflowBundle, agents: [parent, child], tools: [stepTool], tracing }, async (h) => {
      const handle = await startRun(h.client, { agent: 'traced-parent', task }, { taskQueue: h.taskQueue, workflowId: uniqueId('traced-parent-run') });
      expect(await handle.result()).toMatchObject({ status: 'completed', completion: { summary: 'parent done' } });
      return handle.workflowId;
    });
    const childId = `${workflowId}/sub-toolu_0_0`;
    const spans = exporter.getFinishedSpans();
    const start = spans.find((s) => s.name === 'StartWorkflow:agentRun' && JSON.stringify(s.attributes).includes(workflowId));
    expect(start).toBeDefined();
    const trace = spans.filter((s) => s.spanContext().traceId === start!.spanContext().traceId);
    const names = [...new Set(trace.map((s) => s.name))].sort().join(', ');
    expect(trace.some((s) => s.name === 'StartChildWorkflow:agentRun'), names).toBe(true);
    expect(trace.filter((s) => s.name === 'RunWorkflow:agentRun'), names).toHaveLength(2);
    const childChats = trace.filter((s) => s.name.startsWith('chat ') && s.attributes['durable_agent.workflow_id'] === childId);
    expect(childChats).toHaveLength(2);
    expect(childChats.every((s) => s.attributes['gen_ai.agent.name'] === 'traced-child')).toBe(true);
    expect(trace.filter((s) => s.name === 'execute_tool step' && s.attributes['durable_agent.workflow_id'] === childId)).toHaveLength(1);
    expect(trace.filter((s) => s.name.startsWith('chat ') && s.attributes['durable_agent.workflow_id'] === workflowId)).toHaveLength(2);
  });
});
