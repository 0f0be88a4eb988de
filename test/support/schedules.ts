// Helpers for tests of scheduled runs: the schedules a test makes live on the shared dev server, so
// each is deleted afterwards with every run it started that is still open.
import type { Client, WorkflowHandle } from '@temporalio/client';
import { decideApprovalUpdate } from '../../src/contract/agent-run-api';
import { waitFor, waitForApprovals } from './agent-run-harness';

/** Deletes the schedule (if it exists) and terminates the runs of its recent firings that are still open. */
export async function removeSchedule(client: Client, name: string): Promise<void> {
  const handle = client.schedule.getHandle(name);
  const description = await handle.describe().catch(() => undefined);
  if (!description) return;
  await handle.delete().catch(() => undefined);
  await Promise.all(
    description.info.recentActions.map(async ({ action }) => {
      const run = client.workflow.getHandle(action.workflow.workflowId);
      const { status } = await run.describe().catch(() => ({ status: undefined }));
      if (status?.name === 'RUNNING') await run.terminate('the test that made its schedule has finished').catch(() => undefined);
    }),
  );
}

/** Approves the one call the run waits for, as `approver`. */
export async function approveParked(run: WorkflowHandle, approver: string): Promise<void> {
  const { pendingApprovals } = await waitForApprovals(run);
  await run.executeUpdate(decideApprovalUpdate, { args: [{ callId: pendingApprovals[0]!.callId, decision: 'approve', approver }] });
}

/** A firing's workflow id: the schedule's prefix, then the firing time to the second (UTC). */
export const firingIdPattern = (name: string) => new RegExp(`^schedule-${name.replace(/[.]/g, '\\.')}-\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$`);

/**
 * Waits until the worker of `taskQueue` has polled it: the agent check of `startSchedule` asks the
 * queue's pollers, and a worker that has only just started has not polled yet.
 */
export async function waitForPoller(client: Client, taskQueue: string): Promise<void> {
  await waitFor(async () => {
    const { pollers } = await client.workflowService.describeTaskQueue({ namespace: client.options.namespace, taskQueue: { name: taskQueue, kind: 1 }, taskQueueType: 1 });
    return (pollers ?? []).length > 0 ? true : undefined;
  }, `a poller on ${taskQueue}`);
}
