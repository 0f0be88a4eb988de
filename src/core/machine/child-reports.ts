import type { ChildWaiting } from '../../contract/run-records';
import type { RunState } from './run-state';

/** What becomes of a `childStatus` report: taken, dropped without a word (a finished child's late report), or refused with the reason. */
export type ChildReportCheck = { take: true } | { drop: true } | { refusal: string };

/** Whether `workflowId` is `child` or a run below it: a sub-agent's run is named under its parent's id (on-team `childWorkflowId`). */
const withinChild = (workflowId: string, child: string) => workflowId === child || workflowId.startsWith(`${child}/sub-`);

/**
 * Whether a `childStatus` report may change what this run shows and routes. `childStatus` is a plain
 * signal anyone with namespace access can send, and the entries it lists decide where a person's
 * decision is forwarded, so a report is taken only from a sub-agent run this run started and is still
 * waiting for (the ids the state records), and only about that run and the runs below it, which are
 * named under its id. A report listing any other run (a victim's call dressed up as the child's) is
 * refused whole. A finished child's late report that lists nothing is dropped quietly: it says only
 * that nothing waits, which the child's result said already. Pure.
 */
export function checkChildReport(state: RunState, workflowId: string, waiting: ChildWaiting): ChildReportCheck {
  const call = state.turn?.calls.find((c) => c.child?.workflowId === workflowId);
  const empty = waiting.approvals.length === 0 && waiting.questions.length === 0 && !waiting.budget;
  if (!call || call.result) {
    if (empty) return { drop: true };
    return { refusal: `childStatus from ${workflowId}, which is not a sub-agent run this run started and waits for; its report is ignored` };
  }
  const foreign = [...waiting.approvals, ...waiting.questions, ...(waiting.budget ? [waiting.budget] : [])].find((e) => !withinChild(e.workflowId, workflowId));
  if (foreign) {
    return { refusal: `childStatus from ${workflowId} lists a call of ${foreign.workflowId}, which is neither that run nor below it; its report is ignored` };
  }
  return { take: true };
}
