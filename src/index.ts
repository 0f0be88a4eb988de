/**
 * The public surface of durable-agent for code that embeds it: define agents and tools, start a
 * worker, and talk to runs. Everything not exported here is internal and may change.
 */
export { createAgentWorker, type AgentWorker, type AgentWorkerOptions } from './runtime/worker-setup/create-agent-worker';
export { parseWorkerSettings, WorkerSettingsError, type WorkerSettings } from './runtime/config/worker-settings';
export { ModelProviderError, type ModelCredentials } from './runtime/model/providers/model-client';
export { ModelProviderSchema, type ModelProvider } from './contract/model-provider';
export { parseClientSettings, ClientSettingsError, type ClientSettings } from './client/client-settings';
export { describeWorkerSettings } from './runtime/config/settings-banner';
export { AgentDefinitionSchema, type AgentDefinition, type AgentDefinitionInput, type ContextBudget } from './contract/agent-definition';
export { builtinAgents } from './runtime/agents/builtin-agents';
export { createAgentRegistry, type AgentRegistry } from './runtime/agents/agent-registry';
export { defineTool, type Tool, type ToolContext, type ToolSpec } from './runtime/tools/tool-definition';
export { ToolResult, ToolResultSchema, ToolContentPartSchema, type ToolContentPart } from './contract/tool-result';
export type { ToolScope } from './contract/tool-scope';
export { builtinTools } from './runtime/tools/builtin';
export type { ProcessRunner, ProcessRunSpec, ProcessRunResult } from './runtime/tools/sandbox/process-runner';
export type { SandboxMode } from './runtime/tools/sandbox/sandbox-mode';
export { evaluatePolicy } from './core/approvals/approval-policy';
export { type ApprovalRule, type ToolApproval, type ScopePolicy, type ScopeAction } from './contract/approval-rules';
export { DecisionSchema, type Decision, type DecisionVia } from './contract/decision';
export {
  ApprovalDecisionSchema,
  UserReplySchema,
  FollowUpSchema,
  type ApprovalDecision,
  type UserReply,
  type FollowUp,
  type DecisionOutcome,
} from './contract/approval-decision';
export { verifyDecisionSignature, checkSignature, type SignatureCheck } from './core/approvals/signatures/decision-signature';
export {
  decisionMessage,
  replyMessage,
  followUpMessage,
  signedText,
  argumentsHash,
  SIGNED_MESSAGE_VERSION,
  type SignedMessage,
  type RunIdentity,
} from './core/approvals/signatures/signed-message';
export { describeRunIdentity, signDecision, signReply, signFollowUp } from './client/sign-messages';
export { loadApproverRegistry, approverRegistryFromEnv } from './runtime/approvals/approver-registry';
export { approverKeysDir, createApproverKey, signWithApproverKey, type CreatedApproverKey } from './client/approver-keys';
export type { LifecycleEvent, LifecycleEventName, LifecycleEventData, LifecycleEventOf, CallApproval } from './contract/lifecycle-event';
export type { LifecycleHandler } from './runtime/lifecycle/lifecycle-handler';
export { ConsoleLifecycleLogger } from './runtime/lifecycle/console-logger';
export { MetricsCollector, type AgentMetrics, type ToolMetrics } from './runtime/lifecycle/metrics-collector';
export { startMetricsServer, MetricsServerError, type MetricsServer } from './runtime/lifecycle/metrics-server';
export { AuditChain } from './runtime/audit/audit-chain';
export { verifyAuditFile } from './runtime/audit/verify-audit';
export type { AuditRecord } from './runtime/audit/audit-record';
export { EventDeduper } from './runtime/lifecycle/event-dedupe';
export { createBuiltinHandlers, type BuiltinHandlers } from './runtime/lifecycle/builtin-handlers';
export { statusQuery, approvalSignal, decideApprovalUpdate, decideApprovalsUpdate, setModeUpdate, userReplySignal, submitReplyUpdate } from './contract/agent-run-api';
export { PermissionModeSchema, SetModeSchema, type PermissionMode, type SetMode } from './contract/permission-mode';
export { ApprovalBatchSchema, type ApprovalBatch } from './contract/approval-batch';
export { AgentRunInputSchema, type AgentRunInput } from './contract/run-input';
export type { AgentRunResult } from './contract/run-result';
export type { RunStatus } from './contract/run-status';
export { startRun } from './client/start-run';
export { forkRun, planFork, type ForkPlan } from './client/fork-run';
export { AGENT_RUN_WORKFLOW_TYPE } from './contract/agent-run-api';
export { connectClient } from './client/connect';
export {
  TemporalUnreachableError,
  InvalidRunRequestError,
  RunNotResumableError,
  RunNotForkableError,
  NoPendingApprovalError,
  AmbiguousApprovalError,
  DecisionRefusedError,
  NoWorkerAnsweredError,
  ApproverKeyError,
} from './client/errors';
export { FailureType, AgentDefinitionError, ToolDefinitionError, ZodVersionMismatchError, WorkspaceEscapeError, ApproverRegistryError, SandboxUnavailableError } from './contract/errors';
export { MemoryConversationStore, DirectoryConversationStore } from './runtime/conversation/conversation-store';
export { type ConversationStore } from './runtime/conversation/conversation-store-types';
export { PostgresConversationStore } from './runtime/conversation/postgres-conversation-store';
// Types the exports above carry (worker options, a worker's fields, statuses, results, policy and
// audit answers), exported so code that embeds durable-agent can name them.
export { CompletionSchema, TaskSchema, SavedSummarySchema, type Completion, type Task, type SavedSummary } from './contract/control-tools';
export type { TokenUsage } from './contract/messages';
export {
  RunPhaseSchema,
  ToolCallRecordSchema,
  IgnoredMessageSchema,
  PendingQuestionSchema,
  type RunPhase,
  type ToolCallRecord,
  type DecisionRecord,
  type IgnoredMessage,
  type PendingQuestion,
} from './contract/run-records';
export type { PendingApproval, PendingQuestionView, TaskProgress } from './contract/run-status';
export type { ToolPermission } from './contract/tool-permission';
export type { GuardrailFunction, ApprovalHandlerFunction } from './runtime/guardrails/guardrail-types';
export type { PolicyInput, PolicyVerdict } from './core/approvals/approval-policy';
export type { ModelToolSpec, RegistryOptions } from './runtime/agents/agent-registry';
export type { SearchAttributeCheck, SearchAttributeRegistrar } from './runtime/worker-setup/search-attributes-setup';
export type { McpPool } from './runtime/mcp/mcp-pool';
export type { Tracing } from './runtime/observability/tracing';
export type { MetricsServerOptions } from './runtime/lifecycle/metrics-server';
export type { AuditVerification } from './runtime/audit/verify-audit';
export type { StoredConversation } from './runtime/conversation/conversation-store-types';
