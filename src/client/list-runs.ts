import type { WorkflowExecutionInfo } from '@temporalio/client';
import { AGENT_RUN_WORKFLOW_TYPE } from '../contract/agent-run-api';
import { AgentNameKey, AgentStatusKey } from '../contract/search-attributes';

// Listing runs through Temporal's visibility store, shared by `agentctl list` and the console's run list.

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
    phase: phaseOfListed(info.typedSearchAttributes.get(AgentStatusKey), info.status.name),
    execution: info.status.name,
    startTime: info.startTime.toISOString(),
    closeTime: info.closeTime?.toISOString(),
  };
}

/** The phases a run ends in, as its status (and the AgentStatus attribute) name them. */
const ENDED_PHASES: ReadonlySet<string> = new Set(['completed', 'max_iterations', 'guardrail_tripped', 'budget_exhausted', 'failed', 'cancelled']);

/** Temporal's closed statuses as a phase, for a run that closed without saying so itself. */
const CLOSED_AS: Readonly<Record<string, string>> = { FAILED: 'failed', TERMINATED: 'terminated', CANCELLED: 'cancelled', TIMED_OUT: 'timed_out', COMPLETED: 'completed' };

/**
 * The phase a listing shows. The AgentStatus attribute is the run's last word, but a run that failed
 * before it could upsert one (a bad input, a worker that refused its agent) or was terminated says
 * nothing more: for a closed run whose attribute is not an ending, Temporal's own status is shown.
 */
export function phaseOfListed(attribute: string | undefined, execution: string): string | undefined {
  if (execution === 'RUNNING' || execution === 'CONTINUED_AS_NEW') return attribute;
  if (attribute && ENDED_PHASES.has(attribute)) return attribute;
  return CLOSED_AS[execution] ?? attribute;
}
