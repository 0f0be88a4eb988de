import { type Command } from '../../client/cli-context';
import { stringFlag } from '../../client/approval-helpers';
import type { RunPhase } from '../../contract/run-records';
import { listQuery, toListed, type ListedRun } from '../../client/list-runs';
import { UsageError } from '../../client/errors';
import { listingClient } from '../../client/listing-client';

const PHASES = [
  'starting',
  'running',
  'compacting',
  'waiting_approval',
  'waiting_input',
  'waiting_budget',
  'completed',
  'max_iterations',
  'budget_exhausted',
  'failed',
  'cancelled',
] as const satisfies readonly RunPhase[];

function table(rows: ListedRun[]): string {
  const cells = rows.map((r) => [r.workflowId, r.agent ?? '?', r.phase ?? '?', r.execution, r.startTime.replace('T', ' ').slice(0, 19)]);
  const header = ['WORKFLOW ID', 'AGENT', 'PHASE', 'TEMPORAL', 'STARTED (UTC)'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  return [header, ...cells].map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

/** `agentctl list`: recent agent runs from Temporal visibility, filtered by the AgentName/AgentStatus search attributes. */
export const listCommand: Command = {
  name: 'list',
  usage: `agentctl list [--agent NAME] [--phase ${PHASES.join('|')}] [--limit N] [--json]`,
  summary: 'list recent runs, filtered by agent and phase',
  async run(ctx) {
    const agent = stringFlag(ctx, 'agent');
    const phase = stringFlag(ctx, 'phase');
    if (phase && !(PHASES as readonly string[]).includes(phase)) throw new UsageError(`Unknown phase "${phase}". Phases: ${PHASES.join(', ')}.`);
    const limitRaw = stringFlag(ctx, 'limit') ?? '20';
    const limit = Number(limitRaw);
    if (!Number.isInteger(limit) || limit <= 0) throw new UsageError(`--limit must be a positive whole number (got "${limitRaw}")`);
    const rows: ListedRun[] = [];
    for await (const info of listingClient(await ctx.client()).workflow.list({ query: listQuery({ agent, phase }), pageSize: Math.min(limit, 100) })) {
      rows.push(toListed(info));
      if (rows.length >= limit) break;
    }
    ctx.print(rows, () => (rows.length === 0 ? 'No runs match.' : table(rows)));
    return 0;
  },
};
