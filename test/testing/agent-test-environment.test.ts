// The testing kit as a user's test uses it: their tool and agent, a scripted model, approvals decided
// from the test; once against the suite's server and once with a dev server of its own.
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from '../../src/runtime/tools/tool-definition';
import { ToolResult } from '../../src/contract/tool-result';
import { fail, reply, startAgentTestEnvironment, text, thinking, toolCall, type AgentTestEnvironment } from '../../src/testing';
import { temporalAddress, uniqueId } from '../support/temporal';

const orders = new Map<string, number>();
const placeOrder = defineTool({
  name: 'place_order',
  description: 'Places an order for an item.',
  scope: 'write',
  inputSchema: z.object({ item: z.string(), quantity: z.number().int().positive() }),
  execute: async ({ item, quantity }) => {
    orders.set(item, (orders.get(item) ?? 0) + quantity);
    return ToolResult.success(`ordered ${quantity} ${item}`);
  },
});
const shopper = { name: 'shopper', description: 'Buys things.', modelTier: 'fast' as const, tools: ['place_order'], systemPrompt: 'Buy what you are asked to.', maxIterations: 5 };

/** Compiled, never run: `env.toolCall` takes the names and inputs of the tools the environment was given. */
export function toolCallTypes(env: AgentTestEnvironment<readonly [typeof placeOrder]>): void {
  env.toolCall('place_order', { item: 'apples', quantity: 3 });
  env.toolCall('complete_task', { summary: 'done', status: 'success' });
  // @ts-expect-error quantity is a number
  env.toolCall('place_order', { item: 'apples', quantity: '3' });
  // @ts-expect-error no tool of that name
  env.toolCall('place_ordr', { item: 'apples', quantity: 3 });
  // @ts-expect-error item is required
  env.toolCall('place_order', { quantity: 3 });
}

describe('startAgentTestEnvironment', () => {
  let env: AgentTestEnvironment<readonly [typeof placeOrder]>;
  beforeAll(async () => {
    env = await startAgentTestEnvironment({ address: temporalAddress(), agents: [shopper], tools: [placeOrder] });
  }, 60_000);
  afterAll(() => env?.close());

  it('plays scripted turns (thinking, text, a tool call after a 529) and lets the test approve the call', async () => {
    const task = uniqueId('buy apples');
    env.model.script(task, [
      fail(529),
      reply(thinking('The user wants apples.'), text('Ordering.'), env.toolCall('place_order', { item: 'apples', quantity: 3 })),
      reply(toolCall('complete_task', { summary: 'ordered apples', status: 'success' })),
    ]);
    const run = await env.start({ agent: 'shopper', task });
    const [pending] = await run.waitForApprovals();
    expect(pending).toMatchObject({ tool: 'place_order', input: { item: 'apples', quantity: 3 } });
    expect(orders.get('apples')).toBeUndefined();
    await run.approve({ approver: 'test' });
    expect((await run.result()).completion?.summary).toBe('ordered apples');
    expect(orders.get('apples')).toBe(3);
    const requests = env.model.requestsFor(task);
    expect(requests.map((r) => r.index)).toEqual([0, 0, 1]);
    expect(requests[0]!.body.tools?.map((t) => (t as { name: string }).name)).toContain('place_order');
    expect(JSON.stringify(requests[2]!.body.messages.at(-1))).toContain('ordered 3 apples');
    expect(env.model.errors).toEqual([]);
  });

  it('lets the test reject a call, and the model is told why', async () => {
    const task = uniqueId('buy pears');
    env.model.script(task, [reply(toolCall('place_order', { item: 'pears', quantity: 100 })), reply(toolCall('complete_task', { summary: 'did not order', status: 'blocked' }))]);
    const run = await env.start({ agent: 'shopper', task });
    await run.waitForApprovals();
    await run.reject({ reason: 'too many pears' });
    expect((await run.result()).completion?.status).toBe('blocked');
    expect(orders.get('pears')).toBeUndefined();
    expect(JSON.stringify(env.model.requestsFor(task)[1]!.body.messages.at(-1))).toContain('too many pears');
  });
});

describe('startAgentTestEnvironment without an address', () => {
  it('starts a dev server of its own with the temporal CLI, runs a task on it, and stops it on close', async () => {
    const env = await startAgentTestEnvironment({ agents: [shopper], tools: [placeOrder] });
    try {
      expect(env.address).not.toBe(temporalAddress());
      env.model.script('say hi', [reply(toolCall('complete_task', { summary: 'hi', status: 'success' }))]);
      const run = await env.start({ agent: 'shopper', task: 'say hi' });
      expect((await run.result()).completion?.summary).toBe('hi');
    } finally {
      await env.close();
    }
    await expect(fetch(`http://${env.address}`)).rejects.toThrow();
  }, 90_000);
});
