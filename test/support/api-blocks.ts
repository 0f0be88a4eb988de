// A scripted run whose every reply carries the API's own blocks (thinking with its signature, redacted
// thinking, a server tool call and its result) before its tool call, for the tests of each durable
// path (store, crash, continue-as-new, resume, sub-agent). The fake Messages API refuses a request that
// brings one back changed, dropped or moved (thinking-check.ts); `expectBlocksKept` checks every
// request besides, so a test also fails on a path where the fake's 400 would only be retried.
import { expect } from 'vitest';
import type { ContentBlock } from '../../src/contract/messages';
import { redactedThinking, reply, serverToolUse, thinking, toolCall, webSearchResult, type FakeRequest, type RawBlock, type Reply } from './fake-anthropic';
import { callId } from './step-script';

/** The API blocks of step `step`'s reply, in the API's order (thinking first). */
export function apiBlocksFor(step: number): RawBlock[] {
  const search = `srvtoolu_s${step}`;
  return [
    thinking(`Step ${step}: I weigh what to do next, with a multi-line thought.\nSecond line ${'·'.repeat(step)}`),
    redactedThinking(`EqRedacted${step}==`),
    serverToolUse('web_search', { query: `step ${step}` }, search),
    webSearchResult(search, [`https://example.com/${step}`]),
  ];
}

/** Steps 0 to `last` with the `step` tool, then complete_task; each reply with the API's blocks first, and thinking tokens in its usage. */
export function apiBlockPlan(last: number, summary = 'all steps done') {
  return (step: number): Reply => {
    const call = step <= last ? toolCall('step', { n: step }, callId(step)) : toolCall('complete_task', { summary, status: 'success' }, callId(step));
    return reply(...apiBlocksFor(step), call).withUsage({ output_tokens_details: { thinking_tokens: 7 }, server_tool_use: { web_search_requests: 1, web_fetch_requests: 0 } });
  };
}

/**
 * Calls `check` with every assistant turn of every request that carries a step's tool call (one made
 * by a script of this file's shape: ids `toolu_s<step>_…`), its blocks as sent back and that call.
 * Returns how many turns it checked, so a test can tell it looked at some.
 */
export function forEachStepTurn(requests: readonly FakeRequest[], check: (step: number, blocks: ContentBlock[], call: ContentBlock) => void): number {
  let checked = 0;
  for (const request of requests) {
    for (const message of request.body.messages) {
      if (message.role !== 'assistant' || typeof message.content === 'string') continue;
      const blocks = message.content as unknown as ContentBlock[];
      const call = blocks.find((b) => b.type === 'tool_use');
      const step = call?.type === 'tool_use' ? /^toolu_s(\d+)_/.exec(call.id)?.[1] : undefined;
      if (call === undefined || step === undefined) continue;
      check(Number(step), blocks, call);
      checked += 1;
    }
  }
  return checked;
}

/**
 * Every assistant message of every request that carries a step's tool call starts with exactly that
 * step's API blocks (every field, in order): nothing dropped, changed or moved. Returns how many
 * assistant turns were checked, so a test can tell it looked at some.
 */
export function expectBlocksKept(requests: readonly FakeRequest[]): number {
  return forEachStepTurn(requests, (step, blocks) => {
    expect(blocks.slice(0, 4), `the blocks of step ${step} as sent back`).toEqual(apiBlocksFor(step));
  });
}
