// `agentctl costs` through the real binary against real runs on the dev server (issue 34, must-have 2):
// it sums each top-level run's AgentCostUsd once, whatever its links, by agent, user or day.
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunCosts } from '../../../src/client/run-costs';
import { agentctl } from '../../client/agentctl-process';
import { tempWorkspace, waitFor, withAgentWorker } from '../../support/agent-run-harness';
import { useFakeModel } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';

const MODEL = 'costs-cli-model';
/** Each scripted reply uses 100 input and 20 output tokens: $0.0006 at $3 / $15 per million. */
const PER_REPLY = 0.0006;
const listFiles = () => reply(toolCall('list_files', {}));
const complete = () => reply(toolCall('complete_task', { summary: 'done', status: 'success' }));

describe('agentctl costs', () => {
  const bed = useFakeModel();

  it('sums real runs by agent and by user, counts a run that continued as new once, and a run without a price apart', async () => {
    const agent = uniqueId('spender').replace(/[^a-z0-9-]/g, '-');
    const [alice, bob] = [uniqueId('alice'), uniqueId('bob')];
    const prices = path.join(await tempWorkspace(), 'prices.json');
    await writeFile(prices, JSON.stringify({ [MODEL]: { input: 3, output: 15 } }));
    const tasks = { short: uniqueId('short'), long: uniqueId('long'), unpriced: uniqueId('unpriced') };
    bed.fake.script(tasks.short, [listFiles(), complete()]);
    bed.fake.script(tasks.long, [...Array.from({ length: 8 }, listFiles), complete()]);
    bed.fake.script(tasks.unpriced, [complete()]);
    const definition = { name: agent, description: 'spends', modelTier: 'balanced' as const, tools: ['list_files'], systemPrompt: 'Spend.', maxIterations: 20 };
    await withAgentWorker({ ...bed.harness(), agents: [definition], env: { AGENT_MODEL_PRICES_FILE: prices } }, async (h) => {
      const short = await h.start({ agent, task: tasks.short, user: alice, model: MODEL });
      // A small history budget: the run crosses links, each carrying the spend so far.
      const long = await h.start({ agent, task: tasks.long, user: bob, model: MODEL, historyBudget: { maxEvents: 50 } });
      const unpriced = await h.start({ agent, task: tasks.unpriced, user: bob, model: 'model-nobody-priced' });
      const results = await Promise.all([short.result(), long.result(), unpriced.result()]);
      expect(results.map((r) => r.costUsd)).toEqual([expect.closeTo(2 * PER_REPLY, 9), expect.closeTo(9 * PER_REPLY, 9), undefined]);
      await waitFor(async () => {
        let links = 0;
        for await (const _ of h.client.workflow.list({ query: `WorkflowId = '${long.workflowId}'` })) links += 1;
        return links > 1 ? links : undefined;
      }, 'the long run to show several links', 30_000);

      const env = { TEMPORAL_ADDRESS: temporalAddress() };
      // In a full suite this sums every run of the last hour on the shared dev server, at the suite's load.
      const byAgent = await waitFor(async () => {
        const out = await agentctl(['costs', '--by', 'agent', '--since', '1h', '--json'], env);
        // Say why when agentctl printed nothing (a CI run saw only "Unexpected end of JSON input").
        if (out.code !== 0) throw new Error(`agentctl costs exited ${out.code}: ${out.stderr.trim().slice(0, 500)}`);
        const costs = JSON.parse(out.stdout) as RunCosts;
        const group = costs.groups.find((g) => g.key === agent);
        return group?.runs === 3 && group.costUsd > 0.006 ? costs : undefined;
      }, 'visibility to list the three runs with their final cost', 90_000);
      const group = byAgent.groups.find((g) => g.key === agent)!;
      expect(group.runs).toBe(3);
      expect(group.unpriced).toBe(1);
      expect(group.costUsd).toBeCloseTo(11 * PER_REPLY, 9);
      expect(byAgent.since).toBeDefined();

      const byUser = JSON.parse((await agentctl(['costs', '--by', 'user', '--json'], env)).stdout) as RunCosts;
      expect(byUser.groups.find((g) => g.key === alice)).toEqual({ key: alice, runs: 1, costUsd: expect.closeTo(2 * PER_REPLY, 9), unpriced: 0 });
      expect(byUser.groups.find((g) => g.key === bob)).toEqual({ key: bob, runs: 2, costUsd: expect.closeTo(9 * PER_REPLY, 9), unpriced: 1 });

      const byDay = JSON.parse((await agentctl(['costs', '--by', 'day', '--since', '2d', '--json'], env)).stdout) as RunCosts;
      const today = new Date().toISOString().slice(0, 10);
      expect(byDay.groups.find((g) => g.key === today)!.costUsd).toBeGreaterThanOrEqual(11 * PER_REPLY - 1e-9);

      const human = await agentctl(['costs', '--since', '1h'], env);
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(new RegExp(`${agent}\\s+3\\s+\\$0\\.0066\\s+1`));
      expect(human.stdout).toContain('TOTAL');
    });
  });

  it('refuses bad flags with exit 2 and says what is wrong', async () => {
    const env = { TEMPORAL_ADDRESS: temporalAddress() };
    const cases: [string[], RegExp][] = [
      [['costs', '--by', 'model'], /--by must be one of agent, user, day \(got "model"\)/],
      [['costs', '--since', 'last week'], /--since must be a positive duration such as 90, 90s, 15m, 2h or 7d/],
      [['costs', '--since'], /--since needs a value/],
      [['costs', '--group', 'agent'], /Unknown flag --group for costs/],
      [['costs', 'extra'], /costs takes no arguments/],
    ];
    for (const [args, message] of cases) {
      const out = await agentctl(args, env);
      expect(out.code, args.join(' ')).toBe(2);
      expect(out.stderr).toMatch(message);
      expect(out.stderr).toContain('Usage: agentctl costs');
    }
  });
});
