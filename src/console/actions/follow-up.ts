// Sending a running agent a follow-up message. No workflow takes one yet; when `agentRun` gains a
// message update (e.g. `sendMessage`), a channel that sends it plugs in here and the page shows the
// box for runs it supports. Until then the console says so rather than inventing a message.
import type { WorkflowHandle } from '@temporalio/client';
import type { DecisionOutcome } from '../../approvals/approval-decision';
import type { RunStatus } from '../../workflows/run-machine/run-status';
import { FollowUpUnsupportedError } from '../errors';

export interface FollowUpChannel {
  /** Whether this run can take a follow-up now (the page shows the box only then). */
  supports(status: RunStatus | undefined): boolean;
  send(handle: WorkflowHandle, text: string): Promise<DecisionOutcome>;
}

export const noFollowUp: FollowUpChannel = {
  supports: () => false,
  send: async (handle) => {
    throw new FollowUpUnsupportedError(`Run ${handle.workflowId} takes no follow-up messages: agentRun has no message update yet.`);
  },
};
