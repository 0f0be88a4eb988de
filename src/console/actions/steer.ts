// Starting, cancelling and resuming runs from the page, with the client helpers `agentctl` uses.
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { resumeRun } from '../../client/resume-run';
import { startRun } from '../../client/start-run';

export const StartRequestSchema = z.object({
  agent: z.string().trim().min(1, 'name an agent, e.g. general'),
  task: z.string().trim().min(1, 'describe the task'),
  maxIterations: z.number().int().positive().max(100_000).optional(),
  /** A thread: after each completion it waits for a follow-up message (`followUps: true`). */
  followUps: z.boolean().optional(),
});
export type StartRequest = z.infer<typeof StartRequestSchema>;

export const ResumeRequestSchema = z.object({ maxIterations: z.number().int().positive().max(100_000).optional() });

/** Starts a run for `user`: their remembered always/never choices apply to it. */
export async function startRunAs(client: Client, user: string, request: StartRequest, taskQueue: string): Promise<{ workflowId: string }> {
  const handle = await startRun(client, { agent: request.agent, task: request.task, maxIterations: request.maxIterations, followUps: request.followUps, user }, { taskQueue });
  return { workflowId: handle.workflowId };
}

/** Requests cancellation; a run that already ended says so. The run records phase `cancelled` itself. */
export async function cancelRun(client: Client, workflowId: string): Promise<{ cancelled: boolean; message: string }> {
  const handle = client.workflow.getHandle(workflowId);
  const description = await handle.describe();
  if (description.status.name !== 'RUNNING') return { cancelled: false, message: `Run ${workflowId} already ended (${description.status.name}); nothing to cancel.` };
  await handle.cancel();
  return { cancelled: true, message: `Cancellation requested for ${workflowId}.` };
}

/** Resumes as the logged-in person: a run with approvers resumes only for one of them (signed with their key). */
export async function resumeAs(client: Client, user: string, workflowId: string, taskQueue: string, maxIterations?: number): Promise<{ workflowId: string; message: string }> {
  const { handle } = await resumeRun(client, workflowId, { taskQueue, maxIterations, requestedBy: user });
  return { workflowId: handle.workflowId, message: `Resumed as ${handle.workflowId}.` };
}
