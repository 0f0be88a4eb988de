import { type Command } from '../../client/cli-context';
import { stringFlag } from '../../client/approval-helpers';
import { UsageError } from '../../client/errors';
import { COST_GROUPINGS, runCosts, type CostGrouping, type RunCosts } from '../../client/run-costs';
import { parseDuration } from './run';

const FLAGS = new Set(['since', 'by', 'json']);
const usd = (n: number) => `$${n.toFixed(4)}`;

function table(costs: RunCosts): string {
  const header = [costs.by.toUpperCase(), 'RUNS', 'COST (USD)', 'WITHOUT COST'];
  const row = (key: string, g: RunCosts['total']) => [key, String(g.runs), usd(g.costUsd), g.unpriced > 0 ? String(g.unpriced) : ''];
  const cells = [...costs.groups.map((g) => row(g.key, g)), row('TOTAL', costs.total)];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const scope = costs.since ? `Runs started since ${costs.since.replace('T', ' ').slice(0, 19)} UTC` : 'All runs';
  const lines = [header, ...cells].map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd());
  return [`${scope} (top-level runs; a sub-agent's spend is in its root's), estimated:`, ...lines].join('\n');
}

/** `agentctl costs`: what runs cost, summed from the `AgentCostUsd` search attribute in visibility. */
export const costsCommand: Command = {
  name: 'costs',
  usage: `agentctl costs [--since 7d] [--by ${COST_GROUPINGS.join('|')}] [--json]`,
  summary: 'sum the estimated spend of runs (AgentCostUsd), by agent, user or day',
  async run(ctx) {
    const unknown = Object.keys(ctx.args.flags).filter((f) => !FLAGS.has(f));
    if (unknown.length > 0) throw new UsageError(`Unknown flag ${unknown.map((f) => `--${f}`).join(', ')} for costs.`);
    if (ctx.args.positionals.length > 0) throw new UsageError(`costs takes no arguments (got "${ctx.args.positionals.join(' ')}").`);
    const by = stringFlag(ctx, 'by') ?? 'agent';
    if (!(COST_GROUPINGS as readonly string[]).includes(by)) throw new UsageError(`--by must be one of ${COST_GROUPINGS.join(', ')} (got "${by}").`);
    const sinceRaw = stringFlag(ctx, 'since');
    const since = sinceRaw === undefined ? undefined : new Date(Date.now() - parseDuration('since', sinceRaw) * 1000);
    const costs = await runCosts(await ctx.client(), { by: by as CostGrouping, since });
    ctx.print(costs, () => (costs.total.runs === 0 ? 'No runs match.' : table(costs)));
    return 0;
  },
};
