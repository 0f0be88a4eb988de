// Sending a running thread a follow-up message (a run started with `followUps: true`), or steering
// any other working run, through the `sendMessage` update, as `agentctl send` does. A run that has
// ended (or, for a plain run, an execution from before steering) refuses it and the page shows the
// reason. The channel is injectable so a deployment can route messages elsewhere (an approval queue,
// a chat bridge) without touching the routes.
import type { Client } from '@temporalio/client';
import { sendFollowUp } from '../../client/approval-helpers';
import type { RunStatus } from '../../contract/run-status';
import { settle, type ActionOutcome } from './decide';

export interface FollowUpChannel {
  /** Whether this run can take a follow-up now (the page shows the box only then). */
  supports(status: RunStatus | undefined): boolean;
  /** Sends `text` as `user` (the logged-in person), whom a run with approvers checks and the audit log names. */
  send(client: Client, workflowId: string, text: string, user: string): Promise<ActionOutcome>;
}

/** Phases after which a thread takes nothing more. */
const ENDED = new Set(['completed', 'max_iterations', 'guardrail_tripped', 'budget_exhausted', 'failed', 'cancelled']);

export const threadFollowUp: FollowUpChannel = {
  // Threads take follow-ups; any other run takes steering messages while it works or waits (issue 23).
  supports: (status) => status !== undefined && !ENDED.has(status.phase),
  send: (client, workflowId, text, user) => settle(() => sendFollowUp(client.workflow.getHandle(workflowId), text, user), async () => undefined),
};
