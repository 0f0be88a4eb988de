// Prompt caching against a fake Messages API that applies Anthropic's documented prefix-caching
// rules (test/support/prompt-cache-simulator.ts): the requests carry breakpoints, and from the second
// turn on each one reads the previous turn's whole prompt from the cache.
import { describe, expect, it } from 'vitest';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall, type FakeRequest } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

const bed = useAgentTestbed({}, { promptCache: { minTokens: 100 } });
const fake = bed.fake;

/** Where a request carries `cache_control`: the tool names, the system blocks, and message positions. */
function breakpoints(request: FakeRequest) {
  const wire = request.wire;
  const marked = (b: unknown) => typeof b === 'object' && b !== null && 'cache_control' in b;
  return {
    tools: (wire.tools ?? []).filter(marked).map((t) => (t as { name: string }).name),
    system: Array.isArray(wire.system) ? wire.system.filter(marked).length : 0,
    messages: wire.messages.flatMap((m, i) => (Array.isArray(m.content) && m.content.some(marked) ? [i] : [])),
  };
}

const total = (u: NonNullable<FakeRequest['cacheUsage']>) => u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;

describe('prompt caching', () => {
  it('marks tools, system prompt and the latest turns, and reads the previous turn from the cache from the second turn on', async () => {
    const task = uniqueId('cache');
    const look = reply(toolCall('list_files', {}));
    fake.script(task, [look, look, look, reply(toolCall('complete_task', { summary: 'done', status: 'success' }))]);
    const result = await withAgentWorker(bed.harness(), async ({ start }) => (await start({ agent: 'general', task })).result());
    expect(result.status).toBe('completed');
    const requests = fake.requestsFor(task);
    expect(requests).toHaveLength(4);

    const lastTool = (requests[0]!.wire.tools!.at(-1) as { name: string }).name;
    expect(breakpoints(requests[0]!)).toEqual({ tools: [lastTool], system: 1, messages: [0] });
    // Later: also the user message that ended the previous request (where it wrote its cache).
    expect(breakpoints(requests[1]!)).toEqual({ tools: [lastTool], system: 1, messages: [0, 2] });
    expect(breakpoints(requests[3]!)).toEqual({ tools: [lastTool], system: 1, messages: [4, 6] });

    const usages = requests.map((r) => r.cacheUsage!);
    expect(usages[0]).toMatchObject({ cache_read_input_tokens: 0 });
    expect(usages[0]!.cache_creation_input_tokens).toBeGreaterThan(0);
    for (let i = 1; i < usages.length; i += 1) {
      // Each turn reads everything the previous request sent, and writes only what is new.
      expect(usages[i]!.cache_read_input_tokens).toBe(total(usages[i - 1]!));
      expect(usages[i]!.cache_creation_input_tokens).toBe(total(usages[i]!) - total(usages[i - 1]!));
    }
    // The run's usage shows the reads and writes.
    expect(result.usage.cacheReadInputTokens).toBe(usages.reduce((sum, u) => sum + u.cache_read_input_tokens, 0));
    expect(result.usage.cacheCreationInputTokens).toBe(usages.reduce((sum, u) => sum + u.cache_creation_input_tokens, 0));
    expect(result.usage.cacheReadInputTokens).toBeGreaterThan(0);
  });

  it('sends no breakpoints with AGENT_PROMPT_CACHE=off, and then nothing is read from the cache', async () => {
    const task = uniqueId('no-cache');
    fake.script(task, [reply(toolCall('list_files', {})), reply(toolCall('complete_task', { summary: 'done', status: 'success' }))]);
    const result = await withAgentWorker({ ...bed.harness(), env: { AGENT_PROMPT_CACHE: 'off' } }, async ({ start }) => (await start({ agent: 'general', task })).result());
    const requests = fake.requestsFor(task);
    expect(requests.map(breakpoints)).toEqual([
      { tools: [], system: 0, messages: [] },
      { tools: [], system: 0, messages: [] },
    ]);
    expect(requests.map((r) => r.cacheUsage!.cache_read_input_tokens)).toEqual([0, 0]);
    expect(result.usage.cacheReadInputTokens).toBe(0);
  });
});
