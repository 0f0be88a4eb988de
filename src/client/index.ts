/**
 * `durable-agent/client`: what code that drives runs imports (a service, a script, a test), without
 * the worker: connect, start, follow, decide, reply, resume and await a run, schedule runs, and the contract's
 * names and payloads those calls carry. Nothing here loads `@temporalio/worker`.
 */
export { defineAgent, type AgentOutput } from '../contract/define-agent';
export { AgentDefinitionSchema, type AgentDefinitionInput } from '../contract/agent-definition';
export { AgentClient, type AgentClientOptions, type StartOptions, type EnvironmentVariables } from './agent-client';
export { UnknownOptionError, type AgentConnectOptions } from '../runtime/config/connect-options';
export type { ServedSettings } from '../runtime/config/settings-banner';
export { AgentRunHandle, type DecideOptions, type WaitOptions } from './agent-run-handle';
export { followRunEvents, type RunEvent, type RunEventOptions } from './run-events';
export { connectClient } from './connect';
export { parseClientSettings, ClientSettingsError, type ClientSettings } from './client-settings';
export type { WatchSettings } from './watch-settings';
export { startRun, newRunId } from './start-run';
export { followRun, type FollowOptions, type FollowResult, type IdleThread } from './follow-run';
export { awaitOutcome, outcomeOfError, type RunOutcome } from './run-outcome';
export { resumeRun, planResume, startResumedRun, type ResumePlan } from './resume-run';
export { queryStatus, sendDecision, sendReply, sendFollowUp } from './approval-helpers';
export { describeRunIdentity, signDecision, signReply, signFollowUp } from './sign-messages';
export { approverKeysDir, createApproverKey, signWithApproverKey, type CreatedApproverKey } from './approver-keys';
export { listQuery, toListed, type ListedRun } from './list-runs';
export { fetchAgentCatalog } from './agent-catalog';
export { startSchedule, describeSchedule, listSchedules, pauseSchedule, unpauseSchedule, deleteSchedule, type AgentScheduleOptions, type CreatedSchedule } from './schedules';
export { updateSchedule, type AgentScheduleChanges, type UpdatedSchedule } from './schedules-update';
export { triggerSchedule, type TriggerOptions, type TriggerOutcome } from './schedules-trigger';
export type { ScheduleScope } from './schedules-lookup';
export { ScheduleOverlapSchema, type ScheduleOverlap } from './schedules-settings';
export type { AgentScheduleSummary, AgentScheduleDescription, ScheduleFiring } from './schedules-view';
export {
  TemporalUnreachableError,
  InvalidRunRequestError,
  RunNotResumableError,
  NoPendingApprovalError,
  AmbiguousApprovalError,
  DecisionRefusedError,
  NoWorkerAnsweredError,
  ApproverKeyError,
  RunDidNotCompleteError,
  RunWaitTimeoutError,
  RunEndedWhileWaitingError,
  RunNotForkableError,
  InvalidScheduleError,
  ScheduleExistsError,
  UnknownScheduleError,
} from './errors';
export { DurableAgentError, isDurableAgentError } from '../contract/durable-agent-error';
export {
  AGENT_RUN_WORKFLOW_TYPE,
  statusQuery,
  approvalSignal,
  decideApprovalUpdate,
  decideApprovalsUpdate,
  setModeUpdate,
  raiseBudgetUpdate,
  raiseBudgetSignal,
  userReplySignal,
  submitReplyUpdate,
  userMessageSignal,
  sendMessageUpdate,
  closeSignal,
  closeThreadUpdate,
} from '../contract/agent-run-api';
export { AgentRunInputSchema, type AgentRunInput } from '../contract/run-input';
export { PermissionModeSchema, SetModeSchema, type PermissionMode, type SetMode } from '../contract/permission-mode';
export { ApprovalBatchSchema, type ApprovalBatch } from '../contract/approval-batch';
export { BudgetSchema, RaiseBudgetSchema, PendingBudgetSchema, type Budget, type RaiseBudget, type PendingBudget } from '../contract/budget';
export { raiseBudget } from './raise-budget';
export type { AgentRunResult } from '../contract/run-result';
export type { RunStatus, PendingApproval, PendingQuestionView, TaskProgress } from '../contract/run-status';
export type { RunPhase, DecisionRecord, ToolCallRecord } from '../contract/run-records';
export {
  ApprovalDecisionSchema,
  UserReplySchema,
  FollowUpSchema,
  type ApprovalDecision,
  type UserReply,
  type FollowUp,
  type DecisionOutcome,
} from '../contract/approval-decision';
export type { LifecycleEvent, LifecycleEventName } from '../contract/lifecycle-event';
// The contract's types the values above carry (a result's completion and tasks, a status's records,
// a signed message's run), exported so client code can name them, with the schemas they are read by.
export { CompletionSchema, TaskSchema, SavedSummarySchema, type Completion, type Task, type SavedSummary } from '../contract/control-tools';
export type { TokenUsage } from '../contract/messages';
export { RunPhaseSchema, ToolCallRecordSchema, IgnoredMessageSchema, PendingQuestionSchema, type IgnoredMessage, type PendingQuestion } from '../contract/run-records';
export { DecisionSchema, type Decision } from '../contract/decision';
export type { LifecycleEventOf, LifecycleEventData } from '../contract/lifecycle-event';
export type { RunIdentity } from '../core/approvals/signatures/signed-message';
export type { TextDeltaEvent } from './live-text';
// Types the client's signatures name (settings sections, a catalog, a live thinking delta, a
// decision's record on a call, the workflow's call shape for typed handles).
export type { TemporalSettings } from '../runtime/config/worker-config';
export type { TracingSettings } from '../runtime/observability/tracing';
export type { EncryptionKeys } from '../runtime/codec/encryption-keys';
export type { ConsoleEnvSettings } from './console-settings';
export type { AgentCatalog, CatalogAgent, CatalogTool } from '../runtime/agents/agent-catalog';
export type { ThinkingDeltaEvent } from './live-text';
export { CallApprovalSchema, type CallApproval } from '../contract/decision';
export type { AgentRunWorkflow } from '../contract/agent-run-api';
export type { TemporalConnection } from '../runtime/config/temporal-connection';
export type { McpServerSnapshot } from '../runtime/mcp/mcp-pool';
export type { ScopeAction } from '../contract/approval-rules';
export { ToolScopeSchema, type ToolScope } from '../contract/tool-scope';
