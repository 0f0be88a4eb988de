// What a follower does when the run parks: ask the person at the terminal, or say how to decide from
// elsewhere. `agentctl run`/`watch` pick one; `npm start` adds a third (auto-approve for the demo).
import type { WorkflowHandle } from '@temporalio/client';
import type { PendingApproval, RunStatus } from '../contract/run-status';
import { renderPendingApproval, renderQuestion } from './approval-helpers';
import { promptForApprovals, promptForReply, type PromptIO } from './approval-prompt';
import type { FollowOptions } from './follow-run';
import { approvalHint } from './render-status';

export type ParkedHandlers = Pick<FollowOptions, 'onApprovals' | 'onQuestion'>;

/** Prints the parked calls and the agentctl commands that decide them; the follower keeps waiting. */
export function hintOnPark(workflowId: string, out: (line: string) => void): ParkedHandlers {
  return {
    async onApprovals(status: RunStatus, fresh: PendingApproval[]) {
      for (const p of fresh) out(`\n${renderPendingApproval(p)}`);
      for (const line of approvalHint(workflowId, status.pendingApprovals.map((p) => p.callId))) out(line);
      out('Waiting for a decision...');
    },
    async onQuestion(status: RunStatus) {
      out(`\n${renderQuestion(status.pendingQuestion!)}`);
      out(`Answer: npx agentctl reply ${workflowId} "..."`);
      out('Waiting for a reply...');
    },
  };
}

/**
 * Asks at the terminal (`Approve? [y/n/always/never]`). If the input ends before an answer, falls
 * back to printing the commands, so a closed stdin never leaves the person without a way forward.
 */
export function promptOnPark(handle: WorkflowHandle, io: PromptIO, out: (line: string) => void): ParkedHandlers {
  const hint = hintOnPark(handle.workflowId, out);
  return {
    async onApprovals(status, fresh) {
      const made = await promptForApprovals(handle, status, io);
      const left = fresh.filter((p) => !made.some((m) => m.callId === p.callId));
      if (left.length > 0) await hint.onApprovals(status, left);
    },
    async onQuestion(status) {
      const answered = await promptForReply(handle, status.pendingQuestion!, io);
      if (!answered) await hint.onQuestion(status);
    },
  };
}
