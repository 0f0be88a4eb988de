import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentDefinitionError } from '../../../src/contract/errors';
import { builtinAgents } from '../../../src/runtime/agents/builtin-agents';
import { ModelProviderError, type ModelCredentials } from '../../../src/runtime/model/providers/model-client';
import { createAgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';
import { withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, text, toolCall } from '../../support/fake-anthropic';
import { messageTokens, stepScript, stepTool } from '../../support/step-script';
import { startFakeProviderEndpoints, type FakeProviderEndpoints } from '../../support/fake-provider-endpoints';
import { uniqueId } from '../../support/temporal';

const credentials: ModelCredentials = {
  aws: async () => ({ accessKeyId: 'AKIDFAKEKEY', secretAccessKey: 'fake-secret' }),
  google: { projectId: 'creds-project', getRequestHeaders: async () => new Headers({ authorization: 'Bearer ya29.fake-token' }) },
};
const complete = reply(toolCall('complete_task', { summary: 'done', status: 'success', next_steps: 'none' }));

describe('model providers on a worker', () => {
  const bed = useAgentTestbed({ modelCredentials: credentials });
  let endpoints: FakeProviderEndpoints;
  beforeAll(async () => {
    endpoints = await startFakeProviderEndpoints(bed.fake);
  });
  afterAll(() => endpoints.close());
  afterEach(() => {
    expect(endpoints.errors).toEqual([]);
    endpoints.requests.length = 0;
  });

  it('runs agentRun on Bedrock (AGENT_MODEL_PROVIDER): every model call goes through the Bedrock SDK, signed, with the Bedrock model name', async () => {
    const task = uniqueId('bedrock-run');
    bed.fake.script(task, [reply(toolCall('list_files', {})), complete]);
    const env = { AGENT_MODEL_PROVIDER: 'bedrock', AWS_REGION: 'us-west-2', ANTHROPIC_BEDROCK_BASE_URL: endpoints.baseUrl, ANTHROPIC_API_KEY: '' };
    const result = await withAgentWorker({ ...bed.harness(), env }, async ({ start }) => (await start({ agent: 'general', task })).result());
    expect(result.status).toBe('completed');
    expect(endpoints.requests.map((r) => [r.platform, r.path])).toEqual([
      ['bedrock', '/model/anthropic.claude-sonnet-5-5-v1:0/invoke-with-response-stream'],
      ['bedrock', '/model/anthropic.claude-sonnet-5-5-v1:0/invoke-with-response-stream'],
    ]);
    for (const seen of endpoints.requests) expect(seen.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDFAKEKEY\/\d{8}\/us-west-2\/bedrock\//);
    // The second call carries the conversation as the Messages API has it: the tool call and its result.
    const second = endpoints.requests[1]!.body as { messages: { role: string; content: unknown }[]; tools: unknown[]; system: unknown };
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(second.messages[2]!.content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_0_0' })]);
    expect(second.tools).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'list_files' })]));
    expect(second.system).toBeDefined();
    expect(second).not.toHaveProperty('model');
  });

  it("sends an agent's calls to its own provider (`provider: vertex`) while the worker's stay on Anthropic", async () => {
    const task = uniqueId('vertex-agent');
    bed.fake.script(task, [complete]);
    const agents = [{ ...builtinAgents[1]!, name: 'vertex-reader', provider: 'vertex' as const }];
    const env = { CLOUD_ML_REGION: 'europe-west1', ANTHROPIC_VERTEX_BASE_URL: `${endpoints.baseUrl}/v1` };
    const result = await withAgentWorker({ ...bed.harness(), env, agents }, async ({ start }) => (await start({ agent: 'vertex-reader', task })).result());
    expect(result.status).toBe('completed');
    expect(endpoints.requests.map((r) => r.path)).toEqual(['/v1/projects/creds-project/locations/europe-west1/publishers/anthropic/models/claude-haiku-5-5:streamRawPredict']);
    expect(endpoints.requests[0]!.headers.authorization).toBe('Bearer ya29.fake-token');
  });

  it("summarizes a compaction through the agent's provider (`provider: vertex`), on the fast tier and without thinking", async () => {
    const task = uniqueId('vertex-compaction');
    const agents = [{
      name: 'vertex-stepper', description: 'Works in steps on Vertex AI.', provider: 'vertex' as const, modelTier: 'balanced' as const, tools: ['step'], systemPrompt: 'You work in steps.',
      maxIterations: 30, maxTokens: 8_192, thinking: { type: 'enabled' as const, budget_tokens: 2_048 }, context: { windowTokens: 3_000, targetShare: 0.5, keepRecentTurns: 2 },
    }];
    // Registered first: the summarizer's prompt quotes the task, so the task's script would match it too.
    bed.fake.script(`The task: ${task}`, Array.from({ length: 20 }, () => reply(text('SUMMARY of the earlier steps'))));
    bed.fake.script(task, stepScript((step, request) => {
      const call = step <= 6 ? toolCall('step', { n: step, size: 1_500 }, `toolu_s${step}_0`) : toolCall('complete_task', { summary: 'done', status: 'success' }, `toolu_s${step}_0`);
      return reply(call).withUsage({ input_tokens: messageTokens(request), output_tokens: 10 });
    }));
    const env = { CLOUD_ML_REGION: 'europe-west1', ANTHROPIC_VERTEX_BASE_URL: `${endpoints.baseUrl}/v1` };
    const result = await withAgentWorker({ ...bed.harness(), env, agents, tools: [stepTool] }, async ({ start }) => (await start({ agent: 'vertex-stepper', task })).result());
    expect(result.status).toBe('completed');
    const summaries = bed.fake.requestsFor(`The task: ${task}`);
    expect(summaries.length).toBeGreaterThan(0);
    // Every request reached the fake through Vertex: the run's turns and the summaries alike.
    expect(endpoints.requests).toHaveLength(bed.fake.requestsFor(task).length + summaries.length);
    const summaryPaths = endpoints.requests.filter((r) => JSON.stringify(r.body.messages).includes('The task:')).map((r) => r.path);
    expect(summaryPaths).toEqual(summaries.map(() => '/v1/projects/creds-project/locations/europe-west1/publishers/anthropic/models/claude-haiku-5-5:streamRawPredict'));
    for (const { wire } of summaries) expect(wire).not.toHaveProperty('thinking');
  });

  it('refuses an agent that names a provider there is no client for', async () => {
    const agents = [{ ...builtinAgents[1]!, name: 'on-azure', provider: 'azure' as never }];
    const error = await createAgentWorker({ address: '127.0.0.1:1', agents, env: { ANTHROPIC_API_KEY: 'test' } }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(AgentDefinitionError);
    expect((error as Error).message).toBe('Agent "on-azure" is invalid:\n- provider: Invalid option: expected one of "anthropic"|"bedrock"|"vertex"|"foundry"');
  });

  it('stops at start, before connecting to Temporal, when an agents.yaml agent names a provider whose settings are missing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'providers-'));
    const file = path.join(dir, 'agents.yaml');
    await writeFile(file, ['agents:', '  - name: on-vertex', '    description: Runs on Vertex AI.', '    provider: vertex', '    modelTier: fast', '    tools: [read_file]', '    systemPrompt: Read.', '    maxIterations: 3', ''].join('\n'));
    // Port 1 has no Temporal: had the worker tried to connect, the error would be a connection error.
    const started = createAgentWorker({ address: '127.0.0.1:1', agentConfig: file, workspaceRoot: dir, env: { ANTHROPIC_API_KEY: 'test' }, modelCredentials: credentials });
    const error = await started.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ModelProviderError);
    expect((error as Error).message).toBe(
      'The model provider "vertex" cannot be used, so the worker did not start: CLOUD_ML_REGION is not set. Set it to the Vertex AI region of your Claude models, e.g. CLOUD_ML_REGION=us-east5, or global.',
    );
  });
});
