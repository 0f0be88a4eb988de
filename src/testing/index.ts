/**
 * `durable-agent/testing`: test your own tools and agents the way durable-agent tests its own. A
 * scripted model (a fake Messages API on loopback that plays the turns you give it and records every
 * request), a Temporal dev server started with the `temporal` CLI (found, or installed once into a
 * per-user cache), and `startAgentTestEnvironment`, which starts both and a worker with your agents
 * and tools. Runs are real workflows; approvals are awaited and decided with the typed client's run
 * handle. See docs/guides/testing.md.
 */
export { startAgentTestEnvironment, type AgentTestEnvironment, type AgentTestEnvironmentOptions } from './agent-test-environment';
export { startFakeAnthropic as startScriptedModel, type ScriptedModel, type FakeAnthropicOptions as ScriptedModelOptions } from './scripted-model';
export type { ToolInputs, ControlToolInputs } from './tool-inputs';
export {
  reply,
  text,
  toolCall,
  thinking,
  redactedThinking,
  serverToolUse,
  webSearchResult,
  fail,
  disconnect,
  Reply,
  type Step,
  type ReplySpec,
  type ReplyBlock,
  type TextBlock,
  type ToolCallBlock,
  type RawBlock,
  type Failure,
  type Disconnect,
  type FakeRequest as ScriptedRequest,
  type MessagesBody,
} from './scripted-steps';
export { startDevServer, freePort, DevServerStartError, type DevServer, type DevServerOptions, type SearchAttributeType } from './temporal-dev-server';
export { findTemporalCli, ensureTemporalCli, TemporalCliNotFoundError } from './find-temporal-cli';
export type { CacheUsage } from './prompt-cache-simulator';
export { replayRecordedRun, type ReplayRecordedRunOptions } from './replay-recorded-run';
export type { ReplayReport, CompletionView } from '../client/replay/replay-report';
export type { Divergence, DivergenceKind, WouldRun, DecideFlag } from '../client/replay/shadow-session';
export type { ApprovalView } from '../client/replay/shadow-decisions';
export type { Effort, EffortSchema } from '../contract/model-options';
// An environment carries a client, a worker and their options, and their signatures name much of the
// public API in turn: those types are re-exported here, type-only, from where the client and root
// entries take them, so a test can name whatever an environment hands it. `npm run api:check` fails
// if a signature here names a type this entry does not export.
export type { AgentClient, AgentClientOptions, AgentRunHandle, AgentRunInput, AgentRunInputSchema, AgentRunResult, AgentRunWorkflow, ApprovalDecision, ApprovalDecisionSchema, CallApproval, CallApprovalSchema, Completion, CompletionSchema, DecideOptions, Decision, DecisionOutcome, DecisionRecord, DecisionSchema, IgnoredMessage, IgnoredMessageSchema, LifecycleEvent, LifecycleEventData, LifecycleEventName, LifecycleEventOf, McpServerSnapshot, PendingApproval, PendingBudget, PendingBudgetSchema, PendingQuestion, PendingQuestionSchema, PendingQuestionView, PermissionMode, PermissionModeSchema, RunEvent, RunEventOptions, RunOutcome, RunPhase, RunPhaseSchema, RunStatus, SavedSummary, SavedSummarySchema, ScopeAction, StartOptions, Task, TaskProgress, TaskSchema, TemporalConnection, TemporalSettings, TokenUsage, ToolCallRecord, ToolCallRecordSchema, ToolScope, ToolScopeSchema, TracingSettings, WaitOptions } from '../client';
export type { AgentDefinition, AgentDefinitionInput, AgentDefinitionSchema } from '../contract/agent-definition';
export type { ApiBlock, ContainerUploadBlock, ContentBlock, ConversationMessage, RedactedThinkingBlock, ServerToolResultBlock, ServerToolUseBlock, ThinkingBlock, ToolResultBlock, ToolUseBlock } from '../contract/messages';
export type { ModelTier, ModelTierSchema } from '../contract/model-tiers';
export type { ResolvedTool, ResolvedToolSchema } from '../contract/resolved-agent';
export type { ShellAnalysis, ShellAnalysisSchema } from '../contract/shell-analysis';
export type { ToolPermission } from '../contract/tool-permission';
export type { ToolResult, ToolResultSchema } from '../contract/tool-result';
export type { AttemptCompletionSchema, DelegationSchema, HandoffSchema, QuestionSchema, TaskCompletedSchema, TaskListSchema } from '../contract/control-tools';
export type { AgentRegistry, ModelToolSpec } from '../runtime/agents/agent-registry';
export type { NexusTarget, NexusTargetSchema, NexusTargets, NexusTargetsSchema } from '../contract/nexus-tool';
export type { ParsedWorkerSettings, WorkerSettings, WorkerSettingsSchema } from '../runtime/config/worker-settings';
export type { LiveRelaySettings } from '../runtime/live/live-settings';
export type { ConversationStore, StoredConversation } from '../runtime/conversation/conversation-store-types';
export type { ApprovalHandlerFunction, ApprovalHandlerVerdict, ApprovalRequest, GuardrailFunction, GuardrailSubject, GuardrailVerdict } from '../runtime/guardrails/guardrail-types';
export type { LifecycleHandler } from '../runtime/lifecycle/lifecycle-handler';
export type { McpCallToolResult, McpConnection, McpToolInfo } from '../runtime/mcp/mcp-connection';
export type { McpPool } from '../runtime/mcp/mcp-pool';
export type { McpHost } from '../runtime/mcp/mcp-sandbox';
export type { McpServerConfig, McpServerConfigSchema, McpServersConfig, McpServersSchema } from '../runtime/mcp/mcp-server-config';
export type { ModelCredentials } from '../runtime/model/providers/model-client';
export type { Tracing } from '../runtime/observability/tracing';
export type { ChildGuard } from '../runtime/tools/sandbox/child-guard';
export type { ProcessRunResult, ProcessRunSpec, ProcessRunSpecSchema, ProcessRunner } from '../runtime/tools/sandbox/process-runner';
export type { ProtectionMounts } from '../runtime/tools/sandbox/protection-mounts';
export type { SandboxMode } from '../runtime/tools/sandbox/sandbox-mode';
export type { SandboxUser } from '../runtime/tools/sandbox/sandbox-user';
export type { SystemPath } from '../runtime/tools/sandbox/system-layout';
export type { Tool, ToolContext, ToolSpec } from '../runtime/tools/tool-definition';
export type { AgentWorker, AgentWorkerOptions } from '../runtime/worker-setup/create-agent-worker';
export type { AgentConnectOptions } from '../runtime/config/connect-options';
export type { ServedSettings } from '../runtime/config/settings-banner';
export type { WorkerDeployment } from '../runtime/config/deployment-settings';
export type { EnvironmentVariables } from '../client/agent-client';
export type { AgentOutput } from '../contract/define-agent';
export { DurableAgentError } from '../contract/durable-agent-error';
export type { SearchAttributeCheck, SearchAttributeRegistrar, SearchAttributeRegistration } from '../runtime/worker-setup/search-attributes-setup';
// The root's `TextBlock` (a message's text block) is shadowed here by the scripted reply's, so it is
// re-exported under another name for the message types above that name it.
export type { TextBlock as MessageTextBlock } from '../contract/messages';
