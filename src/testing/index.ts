/**
 * `durable-agent/testing`: test your own tools and agents the way durable-agent tests its own. A
 * scripted model (a fake Messages API on loopback that plays the turns you give it and records every
 * request), a Temporal dev server started with the `temporal` CLI, and `startAgentTestEnvironment`,
 * which starts both and a worker with your agents and tools. Runs are real workflows; approvals are
 * awaited and decided with the typed client's run handle.
 */
export { startAgentTestEnvironment, type AgentTestEnvironment, type AgentTestEnvironmentOptions } from './agent-test-environment';
export {
  startFakeAnthropic as startScriptedModel,
  type FakeAnthropic as ScriptedModel,
  type FakeAnthropicOptions as ScriptedModelOptions,
} from './scripted-model';
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
export { findTemporalCli, TemporalCliNotFoundError } from './find-temporal-cli';
export type { CacheUsage } from './prompt-cache-simulator';
