/**
 * The public surface of durable-agent for code that embeds it: define agents and tools, start a
 * worker, and talk to runs. Everything not exported here is internal and may change.
 */
export { createAgentWorker, type AgentWorker, type AgentWorkerOptions } from './runtime/worker-setup/create-agent-worker';
export { runAgentWorker, type RunAgentWorkerOptions } from './runtime/worker-setup/run-agent-worker';
export { UnknownOptionError, type AgentConnectOptions } from './runtime/config/connect-options';
export type { ServedSettings } from './runtime/config/settings-banner';
export type { WorkerDeployment } from './runtime/config/deployment-settings';
export { parseWorkerSettings, WorkerSettingsError, type WorkerSettings } from './runtime/config/worker-settings';
export type { LiveRelaySettings } from './runtime/live/live-settings';
export { ModelProviderError, type ModelCredentials } from './runtime/model/providers/model-client';
export { ModelProviderSchema, type ModelProvider } from './contract/model-provider';
export { parseClientSettings, ClientSettingsError, type ClientSettings } from './client/client-settings';
export type { WatchSettings } from './client/watch-settings';
export { describeWorkerSettings } from './runtime/config/settings-banner';
export { AgentDefinitionSchema, type AgentDefinition, type AgentDefinitionInput, type ContextBudget } from './contract/agent-definition';
export { defineAgent, type AgentOutput } from './contract/define-agent';
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
  ArgumentsHashSchema,
} from './contract/approval-decision';
export { verifyDecisionSignature, checkSignature, type SignatureCheck } from './core/approvals/signatures/decision-signature';
export {
  decisionMessage,
  replyMessage,
  followUpMessage,
  runRequestMessage,
  budgetMessage,
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
export { statusQuery, approvalSignal, decideApprovalUpdate, decideApprovalsUpdate, setModeUpdate, userReplySignal, submitReplyUpdate, raiseBudgetUpdate, raiseBudgetSignal } from './contract/agent-run-api';
export { raiseBudget } from './client/raise-budget';
export { PermissionModeSchema, SetModeSchema, type PermissionMode, type SetMode } from './contract/permission-mode';
export { ApprovalBatchSchema, ShownCallSchema, type ApprovalBatch, type ShownCall } from './contract/approval-batch';
export { AgentRunInputSchema, type AgentRunInput } from './contract/run-input';
export type { AgentRunResult } from './contract/run-result';
export type { RunStatus } from './contract/run-status';
export { startRun } from './client/start-run';
export type { RunOutcome } from './client/run-outcome';
export { forkRun, planFork, type ForkPlan } from './client/fork-run';
// The replay lab's export (`agentctl replay --export`): a run as a file replayRecordedRun (durable-agent/testing) reads.
export { exportRecordedRun, RecordedRunFileSchema, type RecordedRunFile } from './client/replay/recorded-run-file';
export type { StoredBodies } from './client/replay/stored-bodies';
export type { StoredPrefix } from './client/replay/recorded-conversation';
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
  RunDidNotCompleteError,
  RunWaitTimeoutError,
  RunEndedWhileWaitingError,
} from './client/errors';
export { DurableAgentError, isDurableAgentError } from './contract/durable-agent-error';
export { FailureType, AgentDefinitionError, ToolDefinitionError, ZodVersionMismatchError, WorkspaceEscapeError, ApproverRegistryError, SandboxUnavailableError, NexusEndpointUnknownError } from './contract/errors';
export { NexusToolSchema, NexusTargetSchema, NexusTargetsSchema, type NexusTool, type NexusToolInput, type NexusTarget, type NexusTargets } from './contract/nexus-tool';
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
// Types the public signatures above name (a handler's request and verdict, a policy input's parts,
// a settings object's sections, a stored conversation's messages, the MCP pool's members), exported
// so code that writes a handler, a runner or a store against them can name them too.
export { WorkerSettingsSchema, type ParsedWorkerSettings } from './runtime/config/worker-settings';
export { ModelTierSchema, type ModelTier } from './contract/model-tiers';
export type { TemporalSettings } from './runtime/config/worker-config';
export type { TracingSettings } from './runtime/observability/tracing';
export type { EncryptionKeys } from './runtime/codec/encryption-keys';
export type { ConsoleEnvSettings } from './client/console-settings';
export type { AgentRunWorkflow } from './contract/agent-run-api';
export { ContextBudgetSchema } from './contract/agent-definition';
export type { ResolvedTool } from './contract/resolved-agent';
export { ToolScopeSchema } from './contract/tool-scope';
export { ApprovalRuleSchema, ToolApprovalSchema, ScopePolicySchema, ScopeActionSchema } from './contract/approval-rules';
export { DecisionViaSchema, CallApprovalSchema } from './contract/decision';
export type { DecisionFields, DecisionMessage, ReplyMessage, FollowUpMessage, RunRequestMessage, BudgetMessage } from './core/approvals/signatures/signed-message';
export { BudgetSchema, RaiseBudgetSchema, PendingBudgetSchema, type Budget, type RaiseBudget, type PendingBudget } from './contract/budget';
export type { ApprovalRequest, ApprovalHandlerVerdict, GuardrailSubject, GuardrailVerdict } from './runtime/guardrails/guardrail-types';
export { AuditRecordSchema, type AuditEntry } from './runtime/audit/audit-record';
export { ShellAnalysisSchema, CommandPatternSchema, type ShellAnalysis, type CommandPattern } from './contract/shell-analysis';
export { PreferenceRuleSchema, type PreferenceRule } from './core/approvals/preference-rules';
export { ProcessRunSpecSchema } from './runtime/tools/sandbox/process-runner';
export type { ChildGuard } from './runtime/tools/sandbox/child-guard';
export type { SandboxUser } from './runtime/tools/sandbox/sandbox-user';
export type { SearchAttributeRegistration } from './runtime/worker-setup/search-attributes-setup';
export type { McpConnection, McpCallToolResult } from './runtime/mcp/mcp-connection';
export type { McpServerSnapshot } from './runtime/mcp/mcp-pool';
export type { McpServersConfig } from './runtime/mcp/mcp-server-config';
export type { McpHost } from './runtime/mcp/mcp-sandbox';
export type {
  ConversationMessage,
  ContentBlock,
  ApiBlock,
  TextBlock,
  ToolUseBlock,
  ToolResultBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
  ServerToolUseBlock,
  ServerToolResultBlock,
  ContainerUploadBlock,
} from './contract/messages';
export type { TemporalConnection } from './runtime/config/temporal-connection';
export type { ProtectionMounts } from './runtime/tools/sandbox/protection-mounts';
export type { SystemPath } from './runtime/tools/sandbox/system-layout';
export { ResolvedToolSchema } from './contract/resolved-agent';
export type { McpToolInfo } from './runtime/mcp/mcp-connection';
export { McpServersSchema, McpServerConfigSchema, type McpServerConfig } from './runtime/mcp/mcp-server-config';
