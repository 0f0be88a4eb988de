// What `agentctl audit prove` reports. The kinds are a contract: scripts match on them.

/** Every kind of problem a proof can find, and what it means (docs/guides/security.md#proof lists them too). */
export const PROBLEM_KINDS = {
  log_broken: 'an audit log does not verify (a line changed, removed or inserted, or a head that does not match)',
  missing_decision: 'a call that could have a side effect ran, and no decision line of this run names it',
  unlogged_rule: 'a call that could have a side effect ran on a rule, a remembered choice or the mode, in a run from before the workflow wrote decision lines for those (patch rule-decision-lines)',
  duplicate_decision: 'more than one decision line names the call',
  refused_but_ran: 'the decision line refuses the call (reject, timeout, a rule), yet the call ran',
  arguments_mismatch: 'the arguments the activity received are not the ones the decision (or its signature) covers',
  approval_mismatch: 'the decision the activity ran under, or the one a person sent, is not the one the log records',
  decided_late: 'the decision line was written after the workflow task that scheduled the call',
  unanchored: 'no audit local activity in the history wrote the decision line (copied in, or its time changed)',
  missing_call_line: 'a tool activity completed, and the log has no call line for it',
  unsigned: 'the run required signatures, and the history holds no signed decision for the call',
  bad_signature: 'the signature does not verify over this run, call, arguments and decision with the approver\'s key',
  approver_not_allowed: 'the decision is signed by someone who is not among the run\'s approvers',
  foreign_decision: 'a decision line names this workflow, but a run id that is not a link of this run',
  unknown_call: 'a decision line names a call the history does not have',
  approved_not_run: 'a decision line lets a call run, and the call never ran though the run completed',
  unlogged_decision: 'a person\'s decision the workflow applied (an accepted update) has no decision line',
  unmatched_local: 'the history and the log disagree on how many tool calls ran as local activities',
} as const;

export type ProblemKind = keyof typeof PROBLEM_KINDS;

/** One problem, naming the call (`-` when it concerns no one call, such as a broken log). */
export interface ProofProblem {
  callId: string;
  kind: ProblemKind;
  detail: string;
}
