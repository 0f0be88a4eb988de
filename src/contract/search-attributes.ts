import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Registered on the server by the worker at start (and by the dev server launcher) so runs can be filtered. */
export const AgentNameKey = defineSearchAttributeKey('AgentName', SearchAttributeType.KEYWORD);
export const AgentStatusKey = defineSearchAttributeKey('AgentStatus', SearchAttributeType.KEYWORD);

export const AGENT_SEARCH_ATTRIBUTES = { AgentName: 'Keyword', AgentStatus: 'Keyword' } as const;
