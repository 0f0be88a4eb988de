import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Registered on the server by the worker at start (and by the dev server launcher) so runs can be filtered. */
export const AgentNameKey = defineSearchAttributeKey('AgentName', SearchAttributeType.KEYWORD);
export const AgentStatusKey = defineSearchAttributeKey('AgentStatus', SearchAttributeType.KEYWORD);
/** Set on a fork (`agentctl fork`) at its start: the workflow id of the run it was forked from. */
export const ForkedFromKey = defineSearchAttributeKey('ForkedFrom', SearchAttributeType.KEYWORD);

/**
 * The run's estimated spend so far in USD (issue 34), upserted at most once per iteration and only when
 * it changed; `agentctl costs` sums it. A run whose worker found it missing on the namespace (and could
 * not register it) does not upsert it, so such a server runs agents as before, without the figure.
 */
export const AgentCostUsdKey = defineSearchAttributeKey('AgentCostUsd', SearchAttributeType.DOUBLE);

export const AGENT_SEARCH_ATTRIBUTES = { AgentName: 'Keyword', AgentStatus: 'Keyword', ForkedFrom: 'Keyword', AgentCostUsd: 'Double' } as const;
