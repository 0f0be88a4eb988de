import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { AGENT_SEARCH_ATTRIBUTES } from '../workflows/search-attributes';

/**
 * Registers AgentName and AgentStatus on the namespace if the server lacks them. Upserting an
 * unregistered search attribute fails the workflow task, so the worker does this before it polls.
 */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const known = { ...existing.customAttributes, ...existing.systemAttributes };
  const missing = Object.keys(AGENT_SEARCH_ATTRIBUTES).filter((name) => !(name in known));
  if (missing.length === 0) return;
  const searchAttributes: Record<string, temporal.api.enums.v1.IndexedValueType> = {};
  for (const name of missing) searchAttributes[name] = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  try {
    await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
  } catch (error) {
    // Another worker may have registered them a moment ago.
    if (!/already exists/i.test((error as Error).message)) throw error;
  }
}
