import type { WorkflowExecutionInfo } from '@temporalio/client';
import { type Command } from '../cli-context';
import { stringFlag } from '../approval-helpers';
import { AGENT_RUN_WORKFLOW_TYPE } from '../start-run';
import type { RunPhase } from '../../workflows/run-machine/run-state';
import { AgentNameKey, AgentStatusKey } from '../../workflows/search-attributes';
import { UsageError } from '../errors';

const PHASES = [
  'starting',
  'running',
  'compacting',
  'waiting_approval',
  'waiting_input',
  'completed',
  'max_iterations',
  'failed',
  'cancelled',
] as const satisfies readonly RunPhase[];

/** A visibility-query string literal: single quotes, with quotes and backslashes escaped. */
const literal = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The visibility query for `list`: agent runs, optionally of one agent and in one phase. */
export function listQuery(filters: { agent?: string; phase?: string }): string {
  const clauses = [`WorkflowType = ${literal(AGENT_RUN_WORKFLOW_TYPE)}`];
  if (filters.agent) clauses.push(`AgentName = ${literal(filters.agent)}`);
  if (filters.phase) clauses.push(`AgentStatus = ${literal(filters.phase)}`);
  return clauses.join(' AND ');
}

export interface ListedRun {
  workflowId: string;
  runId: string;
  agent?: string;
  phase?: string;
  execution: string;
  startTime: string;
  closeTime?: string;
}

export function toListed(info: WorkflowExecutionInfo): ListedRun {
  return {
    workflowId: info.workflowId,
    runId: info.runId,
    agent: info.typedSearchAttributes.get(AgentNameKey),
    phase: info.typedSearchAttributes.get(AgentStatusKey),
    execution: info.status.name,
    startTime: info.startTime.toISOString(),
    closeTime: info.closeTime?.toISOString(),
  };
}

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
    for await (const info of (await ctx.client()).workflow.list({ query: listQuery({ agent, phase }), pageSize: Math.min(limit, 100) })) {
      rows.push(toListed(info));
      if (rows.length >= limit) break;
    }
    ctx.print(rows, () => (rows.length === 0 ? 'No runs match.' : table(rows)));
    return 0;
  },
};
