import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { AGENT_SEARCH_ATTRIBUTES, AgentCostUsdKey } from '../../contract/search-attributes';

const INDEXED_TYPES = {
  Keyword: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  Double: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE,
} as const;

/** What a registrar is asked to add: the run's search attributes and their types, in one namespace. */
export type SearchAttributeRegistration = { namespace: string; searchAttributes: Record<string, temporal.api.enums.v1.IndexedValueType> };

/** The call that adds search attributes to a namespace (the operator service's, unless replaced). */
export type SearchAttributeRegistrar = (request: SearchAttributeRegistration) => Promise<unknown>;

/** What the worker found and did; `warning` says what an administrator must create when it could not. */
export interface SearchAttributeCheck {
  registered: string[];
  missing: string[];
  warning?: string;
}

/** The commands that create the attributes, for a self-hosted server and for Temporal Cloud. */
export function createAttributesHint(namespace: string, names: readonly string[]): string {
  const entries = names.map((name) => [name, AGENT_SEARCH_ATTRIBUTES[name as keyof typeof AGENT_SEARCH_ATTRIBUTES] ?? 'Keyword'] as const);
  const list = entries.map(([name, type]) => `${name} (${type})`).join(', ');
  const cli = `temporal operator search-attribute create --namespace ${namespace} ${entries.map(([n, t]) => `--name ${n} --type ${t}`).join(' ')}`;
  const tcld = `tcld namespace search-attributes add --namespace ${namespace} ${entries.map(([n, t]) => `--search-attribute "${n}=${t}"`).join(' ')}`;
  return `Create ${list} on namespace "${namespace}":\n  self-hosted:    ${cli}\n  Temporal Cloud: ${tcld}`;
}

/**
 * Registers the run's search attributes (AGENT_SEARCH_ATTRIBUTES) on the namespace if the server lacks them. Upserting an
 * unregistered search attribute fails the workflow task, so the worker does this before it polls.
 * A server that refuses (Temporal Cloud, where an API key may not change the namespace, or a
 * self-hosted server without operator rights) does not stop the worker: runs work once an
 * administrator created the attributes, and the warning says how.
 */
export async function ensureSearchAttributes(
  connection: Connection,
  namespace: string,
  register: SearchAttributeRegistrar = (request) => connection.operatorService.addSearchAttributes(request),
): Promise<SearchAttributeCheck> {
  const names = Object.keys(AGENT_SEARCH_ATTRIBUTES);
  let missing: string[];
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace });
    const known = { ...existing.customAttributes, ...existing.systemAttributes };
    missing = names.filter((name) => !(name in known));
  } catch (error) {
    return { registered: [], missing: names, warning: refusal('could not list the search attributes', error, namespace, names) };
  }
  if (missing.length === 0) return { registered: [], missing: [] };
  const searchAttributes: SearchAttributeRegistration['searchAttributes'] = {};
  for (const name of missing) searchAttributes[name] = INDEXED_TYPES[AGENT_SEARCH_ATTRIBUTES[name as keyof typeof AGENT_SEARCH_ATTRIBUTES] ?? 'Keyword'];
  try {
    await register({ namespace, searchAttributes });
  } catch (error) {
    // Another worker may have registered them a moment ago.
    if (/already exists/i.test((error as Error).message)) return { registered: [], missing: [] };
    return { registered: [], missing, warning: refusal('could not register the search attributes', error, namespace, missing) };
  }
  return { registered: missing, missing: [] };
}

function refusal(what: string, error: unknown, namespace: string, names: string[]): string {
  const reason = (error as Error).message.split('\n')[0];
  // Runs upsert AgentCostUsd only where the worker found it, so only the others hold runs up.
  const blocking = names.filter((name) => name !== AgentCostUsdKey.name);
  const effect = blocking.length > 0 ? 'If they do not exist yet, runs fail their workflow tasks until they do.' : 'Runs work without it, but do not publish their cost (agentctl costs) until it exists.';
  return `The worker ${what} ${names.join(', ')} (${reason}). ${effect} ${createAttributesHint(namespace, names)}`;
}
