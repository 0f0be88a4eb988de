import type { Client } from '@temporalio/client';
import { fetchAgentCatalog } from './agent-catalog';
import { InvalidRunRequestError, NoWorkerAnsweredError } from './errors';

/**
 * Asks a worker of the task queue which agents it serves and refuses an unknown agent. True when a
 * worker confirmed it; false when no worker polls the queue, so the check could not be made.
 */
export async function checkAgent(client: Client, taskQueue: string, agent: string): Promise<boolean> {
  let agents: string[];
  try {
    agents = (await fetchAgentCatalog(client, taskQueue)).agents.map((a) => a.name);
  } catch (error) {
    if (error instanceof NoWorkerAnsweredError) return false;
    throw error;
  }
  if (!agents.includes(agent)) throw new InvalidRunRequestError(`Unknown agent "${agent}". Agents on task queue "${taskQueue}": ${agents.join(', ')}.`);
  return true;
}
