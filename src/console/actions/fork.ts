// Forking a run from the page ("Fork from here" on the run's timeline), with the helper `agentctl fork` uses.
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { forkRun, workspaceNote } from '../../client/fork-run';

export const ForkRequestSchema = z.object({
  iteration: z.number().int().positive(),
  /** A new instruction for the fork, given after the conversation up to `iteration`. */
  task: z.string().trim().min(1).max(100_000).optional(),
});
export type ForkRequest = z.infer<typeof ForkRequestSchema>;

/** Starts the fork as the logged-in person (a run with approvers forks only for one); the message says what happens to the files, since a fork cannot roll them back. */
export async function forkAs(client: Client, user: string, workflowId: string, request: ForkRequest, taskQueue: string): Promise<{ workflowId: string; message: string }> {
  const { plan, handle } = await forkRun(client, workflowId, { iteration: request.iteration, task: request.task, taskQueue, requestedBy: user });
  return { workflowId: handle.workflowId, message: `Forked ${workflowId} after iteration ${request.iteration} as ${handle.workflowId}. ${workspaceNote(plan)}` };
}
