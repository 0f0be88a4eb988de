// The API's blocks that are not thinking: a web search answer's text with its `citations` (each with
// an opaque `encrypted_index`), a `container_upload`, and a tool call's `caller` when code the API ran
// made it (programmatic tool calling). Both must come back exactly as sent in every
// later request, through the conversation store, the checkpoint and continue-as-new. The fake API
// refuses a dropped container upload (thinking-check.ts); the citations are checked on every request.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { DirectoryConversationStore } from '../../src/runtime/conversation/conversation-store';
import { resumeRun } from '../../src/client/resume-run';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { citedText, containerUpload, reply, serverToolUse, thinking, toolCall, webSearchCitation, webSearchResult, type FakeRequest, type RawBlock } from '../support/fake-anthropic';
import { runChain } from '../support/run-chain';
import { callId, stepScript, stepTool } from '../support/step-script';
import { forEachStepTurn } from '../support/api-blocks';

const searcher: AgentDefinitionInput = {
  name: 'searcher',
  description: 'Searches the web and cites what it found.',
  modelTier: 'balanced',
  tools: ['step'],
  systemPrompt: 'You work in steps and cite your sources.',
  maxIterations: 30,
  maxTokens: 8_192,
  thinking: { type: 'enabled', budget_tokens: 2_048 },
  serverTools: [{ type: 'web_search_20260318', name: 'web_search' }, { type: 'code_execution_20250825', name: 'code_execution' }],
};

/** Step `step`'s blocks before its tool call: thinking, a search and its result, cited text, an upload. */
function blocksFor(step: number): RawBlock[] {
  const search = `srvtoolu_c${step}`;
  const url = `https://example.com/cited/${step}`;
  return [
    thinking(`Step ${step}: what do the sources say?`),
    serverToolUse('web_search', { query: `cited ${step}` }, search),
    webSearchResult(search, [url]),
    citedText(`Step ${step}: the page says so.`, [webSearchCitation(url, `the quoted words of step ${step}`), webSearchCitation(`${url}#more`, 'more quoted words')]),
    containerUpload(`file_step_${step}`),
  ];
}

/** The step's call, made by the code the API ran (programmatic tool calling): its `caller` must come back too. */
const callerOf = (step: number) => ({ type: 'code_execution_20250825', tool_id: `srvtoolu_code${step}` });

function plan(last: number) {
  return (step: number) => {
    const call = step <= last ? { ...toolCall('step', { n: step }, callId(step)), caller: callerOf(step) } : toolCall('complete_task', { summary: 'cited', status: 'success' }, callId(step));
    return reply(...blocksFor(step), call);
  };
}

/** Every assistant turn sent back starts with its step's blocks, every field as sent; returns how many were checked. */
function expectCitedBlocksKept(requests: readonly FakeRequest[]): number {
  return forEachStepTurn(requests, (step, blocks, call) => {
    expect(blocks.slice(0, 5), `the blocks of step ${step} as sent back`).toEqual(blocksFor(step));
    expect(call, `the call of step ${step} as sent back`).toEqual({ type: 'tool_use', id: callId(step), name: 'step', input: { n: step }, caller: callerOf(step) });
  });
}

describe('citations and container uploads', () => {
  const bed = useAgentTestbed();
  const harness = (extra: Partial<Parameters<typeof withAgentWorker>[0]> = {}) => ({ ...bed.harness(), agents: [searcher], tools: [stepTool], ...extra });

  it("go back verbatim from a directory store: a web search answer's text keeps its citations, and a container upload stays in its turn", async () => {
    const task = 'Citations drill: directory store';
    bed.fake.script(task, stepScript(plan(2)));
    const store = new DirectoryConversationStore(await mkdtemp(path.join(tmpdir(), 'citations-store-')));
    await withAgentWorker(harness({ conversations: store }), async ({ start }) => {
      expect(await (await start({ agent: 'searcher', task })).result()).toMatchObject({ status: 'completed', iterations: 4 });
    });
    // 0 + 1 + 2 + 3 earlier turns sent back.
    expect(expectCitedBlocksKept(bed.fake.requestsFor(task))).toBe(6);
  });

  it('go back verbatim across continue-as-new, where the whole conversation travels in the activity input', async () => {
    const task = 'Citations drill: continue-as-new';
    bed.fake.script(task, stepScript(plan(8)));
    await withAgentWorker(harness(), async ({ start, client }) => {
      const handle = (await start({ agent: 'searcher', task, historyBudget: { maxEvents: 60 } })) as WorkflowHandleWithFirstExecutionRunId;
      expect(await handle.result()).toMatchObject({ status: 'completed', iterations: 10 });
      expect((await runChain(client, handle.workflowId, handle.firstExecutionRunId)).length).toBeGreaterThanOrEqual(2);
    });
    expect(expectCitedBlocksKept(bed.fake.requestsFor(task))).toBe(45);
  });

  it("go back verbatim when a run is resumed from its checkpoint (the earlier run's conversation read from its history)", async () => {
    const task = 'Citations drill: resume';
    bed.fake.script(task, stepScript(plan(3)));
    await withAgentWorker(harness(), async ({ start, client, taskQueue }) => {
      const first = await start({ agent: 'searcher', task, maxIterations: 2 });
      expect(await first.result()).toMatchObject({ status: 'max_iterations' });
      const { handle } = await resumeRun(client, first.workflowId, { taskQueue, maxIterations: 5 });
      expect(await handle.result()).toMatchObject({ status: 'completed' });
    });
    const requests = bed.fake.requestsFor(task);
    // The resumed run's first request carries the earlier run's two turns, citations and uploads and all.
    expect(requests[2]!.body.messages.filter((m) => m.role === 'assistant')).toHaveLength(2);
    expect(expectCitedBlocksKept(requests)).toBeGreaterThanOrEqual(1 + 2 + 3);
  });
});
