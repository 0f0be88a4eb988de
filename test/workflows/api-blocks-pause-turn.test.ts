// A long server tool turn the API pauses (`pause_turn`) is continued the API's documented way: the
// paused turn is sent back as it is, as the last message, with no user message after it, and the reply
// goes on with that turn. The run keeps the paused blocks and the continuation as one assistant turn
// (thinking first, each server tool call with its result), and sends that turn back so in every later
// request. The fake API answers 400 to a changed, dropped or moved block (thinking-check.ts).
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { statusQuery } from '../../src/contract/agent-run-api';
import type { ContentBlock } from '../../src/contract/messages';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, serverToolUse, text, thinking, toolCall, webSearchResult, type FakeRequest, type RawBlock } from '../support/fake-anthropic';
import { callId, stepOf, stepScript, stepTool } from '../support/step-script';

const researcher: AgentDefinitionInput = {
  name: 'researcher',
  description: 'Searches the web at length.',
  modelTier: 'balanced',
  tools: ['step'],
  systemPrompt: 'You research in steps.',
  maxIterations: 30,
  maxTokens: 8_192,
  thinking: { type: 'enabled', budget_tokens: 2_048 },
  serverTools: [{ type: 'web_search_20260318', name: 'web_search' }],
};

/** What step `step`'s turn says before the API pauses it: thinking, a search done, a second one begun. */
function pausedBlocks(step: number): RawBlock[] {
  return [
    thinking(`Step ${step}: two searches are needed.`),
    serverToolUse('web_search', { query: `first ${step}` }, `srvtoolu_p${step}a`),
    webSearchResult(`srvtoolu_p${step}a`, [`https://example.com/a/${step}`]),
    serverToolUse('web_search', { query: `second ${step}` }, `srvtoolu_p${step}b`),
  ];
}

/** How the API goes on with that turn: the second search's result, a word, and the step's tool call. */
function continuationBlocks(step: number, last: number): RawBlock[] {
  const call = step <= last ? toolCall('step', { n: step }, callId(step)) : toolCall('complete_task', { summary: 'researched', status: 'success' }, callId(step));
  return [webSearchResult(`srvtoolu_p${step}b`, [`https://example.com/b/${step}`]), text(`Both searches of step ${step} agree.`), call];
}

const isContinuation = (request: FakeRequest) => request.body.messages.at(-1)?.role === 'assistant';

/** Each step's turn is paused once, then continued; the step of a continuation is the one it continues. */
function pausingPlan(last: number) {
  return stepScript((_step, request) => {
    if (!isContinuation(request)) return reply(...pausedBlocks(stepOf(request))).withStopReason('pause_turn');
    const step = stepOf({ body: { ...request.body, messages: request.body.messages.slice(0, -1) } });
    return reply(...continuationBlocks(step, last));
  });
}

describe('a paused turn (pause_turn)', () => {
  const bed = useAgentTestbed();

  it('is sent back as it is, with no user message after it, and kept with its continuation as one turn in every later request', async () => {
    const task = 'Pause drill: two paused steps';
    bed.fake.script(task, pausingPlan(1));
    await withAgentWorker({ ...bed.harness(), agents: [researcher], tools: [stepTool] }, async ({ start }) => {
      const handle = await start({ agent: 'researcher', task });
      // Steps 0, 1 and 2 each take a paused call and its continuation.
      expect(await handle.result()).toMatchObject({ status: 'completed', iterations: 6 });
      // Every server tool call is recorded once, "ran by the API", though its turn came in two replies.
      const status = await handle.query(statusQuery);
      const serverCalls = status.recentToolCalls.filter((c) => c.ranBy === 'api').map((c) => c.callId);
      expect(serverCalls).toEqual(['srvtoolu_p0a', 'srvtoolu_p0b', 'srvtoolu_p1a', 'srvtoolu_p1b', 'srvtoolu_p2a', 'srvtoolu_p2b']);
    });
    const requests = bed.fake.requestsFor(task);
    expect(requests).toHaveLength(6);
    for (const [i, request] of requests.entries()) {
      const messages = request.body.messages;
      // No nudge is ever sent: the conversation is the task, the turns and the tool results.
      expect(JSON.stringify(messages)).not.toContain('Continue.');
      // Odd requests continue: they end with the paused turn exactly as the API sent it.
      if (i % 2 === 1) expect(messages.at(-1)).toEqual({ role: 'assistant', content: pausedBlocks((i - 1) / 2) });
      else expect(messages.at(-1)?.role).toBe('user');
      // Every earlier step is one assistant turn: its paused blocks, then its continuation, thinking first.
      const turns = messages.filter((m) => m.role === 'assistant' && (m.content as ContentBlock[]).some((b) => b.type === 'tool_use'));
      expect(turns).toHaveLength(Math.floor(i / 2));
      for (const [step, turn] of turns.entries()) {
        const blocks = turn.content as unknown as RawBlock[];
        expect(blocks.slice(0, 4)).toEqual(pausedBlocks(step));
        expect(blocks.slice(4).map((b) => b.type)).toEqual(['web_search_tool_result', 'text', 'tool_use']);
        expect(blocks[4]).toEqual(continuationBlocks(step, 1)[0]);
      }
    }
  });
});
