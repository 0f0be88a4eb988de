import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Registered on the server by the worker at start (and by the dev server launcher) so runs can be filtered. */
export const AgentNameKey = defineSearchAttributeKey('AgentName', SearchAttributeType.KEYWORD);
export const AgentStatusKey = defineSearchAttributeKey('AgentStatus', SearchAttributeType.KEYWORD);
/** Set on a fork (`agentctl fork`) at its start: the workflow id of the run it was forked from. */
export const ForkedFromKey = defineSearchAttributeKey('ForkedFrom', SearchAttributeType.KEYWORD);

export const AGENT_SEARCH_ATTRIBUTES = { AgentName: 'Keyword', AgentStatus: 'Keyword', ForkedFrom: 'Keyword' } as const;
