import type { Connection } from '@temporalio/client';
import { NexusEndpointUnknownError } from '../../contract/errors';
import { nexusToolName } from '../../contract/nexus-tool';
import type { AgentRegistry } from '../agents/agent-registry';

/** What the check found; `warning` says why it could not tell (the server would not list its endpoints). */
export interface NexusEndpointCheck {
  checked: string[];
  warning?: string;
}

/** Every endpoint name the operator service lists, page by page. */
async function listEndpointNames(connection: Connection): Promise<Set<string>> {
  const names = new Set<string>();
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await connection.operatorService.listNexusEndpoints({ pageSize: 1000, nextPageToken });
    for (const endpoint of page.endpoints ?? []) if (endpoint.spec?.name) names.add(endpoint.spec.name);
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (nextPageToken);
  return names;
}

/**
 * Refuses to start a worker whose agents name a Nexus endpoint the server does not know: otherwise
 * the first call would be parked for a person's approval and only then fail. Asked once, at worker
 * start, of the operator service. A server that will not list its endpoints (Temporal Cloud manages
 * them through its own API; a key without operator rights) is not a refusal: the worker starts and
 * the warning says what could not be checked.
 */
export async function checkNexusEndpoints(connection: Connection, registry: Pick<AgentRegistry, 'agents'>): Promise<NexusEndpointCheck> {
  const uses = [...registry.agents.values()].flatMap((agent) => agent.nexusTools.map((tool) => ({ agent: agent.name, tool: nexusToolName(tool), endpoint: tool.endpoint })));
  if (uses.length === 0) return { checked: [] };
  const wanted = [...new Set(uses.map((u) => u.endpoint))];
  let known: Set<string>;
  try {
    known = await listEndpointNames(connection);
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    return { checked: [], warning: `The worker could not list the server's Nexus endpoints (${reason}), so it did not check ${wanted.join(', ')}; a call to a missing endpoint fails when it runs.` };
  }
  const missing = uses.filter((u) => !known.has(u.endpoint));
  if (missing.length > 0) {
    const lines = missing.map((u) => `- agent "${u.agent}", Nexus tool "${u.tool}": endpoint "${u.endpoint}"`).join('\n');
    const have = known.size > 0 ? `The server has: ${[...known].sort().join(', ')}.` : 'The server has no Nexus endpoints.';
    throw new NexusEndpointUnknownError(
      `The Temporal server does not know the Nexus endpoint(s) these agents name:\n${lines}\n${have} ` +
        'Create it (temporal operator nexus endpoint create --name <endpoint> --target-namespace <ns> --target-task-queue <queue>) or fix the agent.',
    );
  }
  return { checked: wanted };
}
