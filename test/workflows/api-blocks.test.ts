// The API's own blocks (thinking with its signature, redacted thinking, server tool calls and their
// results) must come back verbatim, thinking first, in every later request. Each test takes one
// durable path a conversation travels (the delta to the model activity, a conversation store,
// continue-as-new, resume, a sub-agent's run) with a fake Messages API that answers 400 to a changed,
// dropped or moved block, as the real one does, and checks every request besides.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { statusQuery } from '../../src/contract/agent-run-api';
import { DirectoryConversationStore } from '../../src/runtime/conversation/conversation-store';
import { forkRun } from '../../src/client/fork-run';
import { resumeRun } from '../../src/client/resume-run';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, text, toolCall, type FakeRequest } from '../support/fake-anthropic';
import { apiBlockPlan, expectBlocksKept } from '../support/api-blocks';
import { messageTokens, stepScript, stepTool } from '../support/step-script';
import { runChain } from '../support/run-chain';

const thinker: AgentDefinitionInput = {
  name: 'thinker',
  description: 'Thinks, searches the web, and works in steps.',
  modelTier: 'balanced',
  model: 'claude-opus-4-8',
  tools: ['step'],
  systemPrompt: 'You work in steps.',
  maxIterations: 30,
  maxTokens: 8_192,
  thinking: { type: 'enabled', budget_tokens: 2_048 },
  effort: 'high',
  serverTools: [{ type: 'web_search_20260318', name: 'web_search', max_uses: 3 }],
};

describe("the API's own blocks", () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;
  const harness = (extra: Partial<Parameters<typeof withAgentWorker>[0]> = {}) => ({ ...bed.harness(), agents: [thinker], tools: [stepTool], ...extra });

  it('go back verbatim through the delta to the model activity, with the agent\'s model, thinking, effort and server tools in every request', async () => {
    const task = 'Blocks drill: delta';
    fake.script(task, stepScript(apiBlockPlan(3)));
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'thinker', task });
      const result = await handle.result();
      expect(result).toMatchObject({ status: 'completed', iterations: 5 });
      // Thinking tokens and server tool requests are counted over the run.
      expect(result.usage).toMatchObject({ thinkingTokens: 35, serverToolUse: { web_search_requests: 5 } });
      const status = await handle.query(statusQuery);
      expect(status.model).toBe('claude-opus-4-8');
    });
    const requests = fake.requestsFor(task);
    expect(requests).toHaveLength(5);
    // After the first, each request is a delta on what the activity kept; 1 + 2 + 3 + 4 earlier turns checked.
    expect(expectBlocksKept(requests)).toBe(10);
    for (const { wire } of requests) {
      expect(wire).toMatchObject({ model: 'claude-opus-4-8', thinking: { type: 'enabled', budget_tokens: 2_048 }, output_config: { effort: 'high' } });
      expect(wire.tools?.at(-1)).toMatchObject({ type: 'web_search_20260318', name: 'web_search', max_uses: 3 });
    }
  });

  it('go back verbatim from a directory store, and a run may choose its own model and effort', async () => {
    const task = 'Blocks drill: directory store';
    fake.script(task, stepScript(apiBlockPlan(2)));
    const store = new DirectoryConversationStore(await mkdtemp(path.join(tmpdir(), 'blocks-store-')));
    await withAgentWorker(harness({ conversations: store }), async ({ start }) => {
      const handle = await start({ agent: 'thinker', task, model: 'claude-sonnet-4-6', effort: 'low' });
      expect(await handle.result()).toMatchObject({ status: 'completed', iterations: 4 });
    });
    const requests = fake.requestsFor(task);
    expect(expectBlocksKept(requests)).toBe(6);
    for (const { wire } of requests) expect(wire).toMatchObject({ model: 'claude-sonnet-4-6', output_config: { effort: 'low' } });
  });

  it('go back verbatim across continue-as-new', async () => {
    const task = 'Blocks drill: continue-as-new';
    fake.script(task, stepScript(apiBlockPlan(8)));
    await withAgentWorker(harness(), async ({ start, client }) => {
      const handle = (await start({ agent: 'thinker', task, historyBudget: { maxEvents: 60 } })) as WorkflowHandleWithFirstExecutionRunId;
      expect(await handle.result()).toMatchObject({ status: 'completed', iterations: 10 });
      // More than one link: the conversation crossed continue-as-new in the checkpoint.
      expect((await runChain(client, handle.workflowId, handle.firstExecutionRunId)).length).toBeGreaterThanOrEqual(2);
    });
    expect(expectBlocksKept(fake.requestsFor(task))).toBe(45);
  });

  it('go back verbatim when a run is resumed from its checkpoint', async () => {
    const task = 'Blocks drill: resume';
    fake.script(task, stepScript(apiBlockPlan(3)));
    await withAgentWorker(harness(), async ({ start, client, taskQueue }) => {
      const first = await start({ agent: 'thinker', task, maxIterations: 2 });
      expect(await first.result()).toMatchObject({ status: 'max_iterations' });
      const { handle } = await resumeRun(client, first.workflowId, { taskQueue, maxIterations: 5 });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    });
    const requests = fake.requestsFor(task);
    // The resumed run's first request carries the earlier run's two turns, blocks and all.
    expect(requests[2]!.body.messages.filter((m) => m.role === 'assistant')).toHaveLength(2);
    expect(expectBlocksKept(requests)).toBeGreaterThanOrEqual(1 + 2 + 3);
  });

  it('go back verbatim in a fork of the run, taken from its history', async () => {
    const task = 'Blocks drill: fork';
    fake.script(task, stepScript(apiBlockPlan(2)));
    await withAgentWorker(harness(), async ({ start, client, taskQueue }) => {
      const original = await start({ agent: 'thinker', task });
      expect(await original.result()).toMatchObject({ status: 'completed', iterations: 4 });
      const { handle } = await forkRun(client, original.workflowId, { iteration: 2, taskQueue });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    });
    const requests = fake.requestsFor(task);
    // The original asks four times; the fork's first request carries the original's first two turns.
    expect(requests).toHaveLength(6);
    expect(requests[4]!.body.messages.filter((m) => m.role === 'assistant')).toHaveLength(2);
    // Original: 0 + 1 + 2 + 3 assistant turns sent back; fork: 2 + 3.
    expect(expectBlocksKept(requests)).toBe(11);
  });

  it("go back verbatim in a sub-agent's run", async () => {
    const task = 'Blocks drill: parent';
    const subTask = 'Blocks drill: the sub-agent part';
    const parent: AgentDefinitionInput = { ...thinker, name: 'lead', subAgents: ['thinker'], tools: [] };
    fake.script(task, [reply(toolCall('delegate_task', { agent: 'thinker', task: subTask })), reply(toolCall('complete_task', { summary: 'the sub-agent did it', status: 'success' }))]);
    fake.script(subTask, stepScript(apiBlockPlan(2)));
    await withAgentWorker(harness({ agents: [parent, thinker] }), async ({ start }) => {
      const handle = await start({ agent: 'lead', task });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    });
    expect(expectBlocksKept(fake.requestsFor(subTask))).toBe(6);
  });

  it('survive compaction: the kept turns keep their blocks whole, and the summary request runs without thinking and without the thoughts', async () => {
    const task = 'Blocks drill: compaction';
    const tiny: AgentDefinitionInput = { ...thinker, name: 'thinker-tiny', context: { windowTokens: 3_000, targetShare: 0.5, keepRecentTurns: 2 } };
    const plan = apiBlockPlan(7);
    const steps = (step: number, request: FakeRequest) => {
      const usage = { input_tokens: messageTokens(request), output_tokens: 10, output_tokens_details: { thinking_tokens: 7 } };
      return plan(step).withUsage(usage);
    };
    // Registered first: the summarizer's prompt quotes the task, so the task's script would match it too.
    fake.script('The task:', Array.from({ length: 20 }, () => reply(text('SUMMARY of the earlier steps'))));
    fake.script(task, stepScript(steps));
    await withAgentWorker(harness({ agents: [tiny] }), async ({ start }) => {
      const handle = await start({ agent: 'thinker-tiny', task });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
      expect((await handle.query(statusQuery)).compactions).toBeGreaterThan(0);
    });
    const summaries = fake.requestsFor('The task:');
    expect(summaries.length).toBeGreaterThan(0);
    for (const { wire, body } of summaries) {
      expect(wire).not.toHaveProperty('thinking');
      const prompt = JSON.stringify(body.messages);
      expect(prompt).not.toContain('I weigh what to do next');
      expect(prompt).toContain('SERVER TOOL CALL (ran by the API) web_search');
    }
    const requests = fake.requestsFor(task);
    expect(expectBlocksKept(requests)).toBeGreaterThan(0);
    // After a compaction the conversation starts with the summary, and the first turn kept starts with its thinking.
    const compacted = requests.filter((r) => JSON.stringify(r.body.messages[0]).includes('SUMMARY of the earlier steps'));
    expect(compacted.length).toBeGreaterThan(0);
    for (const r of compacted) expect((r.body.messages[1]!.content as { type: string }[])[0]!.type).toBe('thinking');
  });
});
