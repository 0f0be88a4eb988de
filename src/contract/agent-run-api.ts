import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ApprovalDecision, DecisionOutcome, FollowUp, UserReply } from './approval-decision';
import type { ApprovalBatch } from './approval-batch';
import type { SetMode } from './permission-mode';
import type { RaiseBudget } from './budget';
import type { AgentRunInput } from './run-input';
import type { AgentRunResult } from './run-result';
import type { ChildWaiting } from './run-records';
import type { RunStatus } from './run-status';

/** The workflow type every run (and every sub-agent's run) is started with. */
export const AGENT_RUN_WORKFLOW_TYPE = 'agentRun';

/**
 * The call shape of `agentRun`, for typed handles (`WorkflowHandle<AgentRunWorkflow>`). Clients name
 * this instead of `typeof agentRun` so the public API does not reach into the workflow's code;
 * test/contract/agent-run-workflow.test.ts checks the workflow still has this shape.
 */
export type AgentRunWorkflow = (input: AgentRunInput) => Promise<AgentRunResult>;

/**
 * Every message into or out of `agentRun`, defined once. Clients, tests and the CLI use these
 * objects, never the name strings; the names themselves are a contract with plain Temporal tooling.
 */

/** Read-only view of a run; also answers for closed runs, because the worker replays the history. */
export const statusQuery = defineQuery<RunStatus>('status');

/**
 * A person's decision on a parked tool call. A signal because approvals must work from any Temporal
 * client (the `temporal` CLI, the Web UI) and while no worker is running: the server stores it.
 * The payload is validated inside the workflow; a malformed one is recorded and ignored.
 */
export const approvalSignal = defineSignal<[ApprovalDecision]>('approval');

/** The same decision for callers that need an answer: an update, so bad input is refused up front. */
export const decideApprovalUpdate = defineUpdate<DecisionOutcome, [ApprovalDecision]>('decideApproval');

/**
 * Decisions on several parked calls of a turn, applied all or none: if one is refused nothing changes
 * and the refusal names the call and why. An update only: the caller needs to know which.
 */
export const decideApprovalsUpdate = defineUpdate<DecisionOutcome, [ApprovalBatch]>('decideApprovals');

/** Switches the run's permission mode for the rest of the run; the switch is written to the audit log. */
export const setModeUpdate = defineUpdate<DecisionOutcome, [SetMode]>('setMode');

/**
 * Raises the spend budget of a run parked by it (issue 34; or of one that runs, ahead of time); only
 * the run's approvers, signed when the worker has an approver registry. An update: the caller must
 * learn whether it was refused and why.
 */
export const raiseBudgetUpdate = defineUpdate<DecisionOutcome, [RaiseBudget]>('raiseBudget');

/**
 * The same raise as a signal: how a run forwards it to the sub-agent's run that waits for it (a
 * workflow cannot send an update). Checked there exactly as the update is; a refusal is recorded in
 * that run's `ignored`.
 */
export const raiseBudgetSignal = defineSignal<[RaiseBudget]>('budgetRaise');

/** The user's answer to a `need_more_information` question. */
export const userReplySignal = defineSignal<[UserReply]>('userReply');

/** The same answer, acknowledged: rejected when no question is waiting. */
export const submitReplyUpdate = defineUpdate<DecisionOutcome, [UserReply]>('submitReply');

/** A follow-up message for a thread (a run started with `followUps: true`). Stored by the server while no worker runs. */
export const userMessageSignal = defineSignal<[FollowUp]>('userMessage');

/** The same message, acknowledged: answers when the agent's next turn starts; refused if the run takes no follow-ups. */
export const sendMessageUpdate = defineUpdate<DecisionOutcome, [FollowUp]>('sendMessage');

/** Ends a thread: at once when it is idle, else when the agent next completes. */
export const closeSignal = defineSignal<[]>('close');

/** The same, acknowledged (`agentctl close`). */
export const closeThreadUpdate = defineUpdate<DecisionOutcome, []>('closeThread');

/**
 * Internal: a sub-agent's run tells its parent what it (and its own sub-agents) wait for, so the
 * parent's status, and the root's, show every waiting call of the tree.
 */
export const childStatusSignal = defineSignal<[{ workflowId: string; waiting: ChildWaiting }]>('childStatus');
