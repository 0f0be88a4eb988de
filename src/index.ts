/**
 * The public surface of durable-agent for code that embeds it: define agents and tools, start a
 * worker, and talk to runs. Everything not exported here is internal and may change.
 */
export { createAgentWorker, type AgentWorker, type AgentWorkerOptions } from './worker-setup/create-agent-worker';
export { parseWorkerSettings, WorkerSettingsError, type WorkerSettings } from './config/worker-settings';
export { parseClientSettings, ClientSettingsError, type ClientSettings } from './config/client-settings';
export { describeWorkerSettings } from './config/settings-banner';
export { AgentDefinitionSchema, type AgentDefinition, type AgentDefinitionInput, type ContextBudget } from './agents/agent-definition';
export { builtinAgents } from './agents/builtin-agents';
export { createAgentRegistry, type AgentRegistry } from './agents/agent-registry';
export { defineTool, type Tool, type ToolContext, type ToolSpec } from './tools/tool-definition';
export { ToolResult, ToolResultSchema } from './tools/tool-result';
export type { ToolScope } from './tools/tool-scope';
export { builtinTools } from './tools/builtin';
export type { ProcessRunner, ProcessRunSpec, ProcessRunResult } from './tools/sandbox/process-runner';
export type { SandboxMode } from './tools/sandbox/sandbox-mode';
export { evaluatePolicy, type ApprovalRule, type ToolApproval, type ScopePolicy } from './approvals/approval-policy';
export {
  ApprovalDecisionSchema,
  UserReplySchema,
  FollowUpSchema,
  type ApprovalDecision,
  type UserReply,
  type FollowUp,
  type DecisionOutcome,
} from './approvals/approval-decision';
export { verifyDecisionSignature, checkSignature, type SignatureCheck } from './approvals/signatures/decision-signature';
export {
  decisionMessage,
  replyMessage,
  followUpMessage,
  signedText,
  argumentsHash,
  SIGNED_MESSAGE_VERSION,
  type SignedMessage,
  type RunIdentity,
} from './approvals/signatures/signed-message';
export { describeRunIdentity, signDecision, signReply, signFollowUp } from './client/sign-messages';
export { loadApproverRegistry, approverRegistryFromEnv } from './approvals/signatures/approver-registry';
export { approverKeysDir, createApproverKey, signWithApproverKey, type CreatedApproverKey } from './client/approver-keys';
export type { LifecycleEvent, LifecycleEventName } from './lifecycle/lifecycle-event';
export type { LifecycleHandler } from './lifecycle/lifecycle-handler';
export { ConsoleLifecycleLogger } from './lifecycle/console-logger';
export { MetricsCollector, type AgentMetrics, type ToolMetrics } from './lifecycle/metrics-collector';
export { startMetricsServer, MetricsServerError, type MetricsServer } from './lifecycle/metrics-server';
export { AuditChain } from './audit/audit-chain';
export { verifyAuditFile } from './audit/verify-audit';
export type { AuditRecord } from './audit/audit-record';
export { EventDeduper } from './lifecycle/event-dedupe';
export { createBuiltinHandlers, type BuiltinHandlers } from './lifecycle/builtin-handlers';
export {
  statusQuery,
  approvalSignal,
  decideApprovalUpdate,
  userReplySignal,
  submitReplyUpdate,
} from './workflows/definitions';
export { AgentRunInputSchema, type AgentRunInput } from './workflows/run-input';
export type { AgentRunResult } from './workflows/run-result';
export type { RunStatus } from './workflows/run-machine/run-status';
export { startRun, AGENT_RUN_WORKFLOW_TYPE } from './client/start-run';
export { connectClient } from './client/connect';
export {
  TemporalUnreachableError,
  InvalidRunRequestError,
  RunNotResumableError,
  NoPendingApprovalError,
  AmbiguousApprovalError,
  DecisionRefusedError,
  NoWorkerAnsweredError,
  ApproverKeyError,
} from './client/errors';
export { FailureType, AgentDefinitionError, ToolDefinitionError, WorkspaceEscapeError, ApproverRegistryError, SandboxUnavailableError } from './errors';
export { MemoryConversationStore, DirectoryConversationStore, type ConversationStore } from './conversation/conversation-store';
export { PostgresConversationStore } from './conversation/postgres-conversation-store';
