import type Anthropic from '@anthropic-ai/sdk';
import { ApplicationFailure } from '@temporalio/common';
import type { AgentDefinition } from '../../contract/agent-definition';
import type { AgentRegistry, ModelToolSpec } from '../agents/agent-registry';
import { buildSystemPrompt } from '../agents/system-prompt';
import type { ConversationMessage } from '../../contract/messages';
import { FailureType } from '../../contract/errors';
import { withOutputField } from '../../core/structured-output/completion-output';
import { outputContractOf, type OutputContract } from '../../core/structured-output/output-contract';
import type { ModelTier } from '../../contract/model-tiers';
import type { Effort } from '../../contract/model-options';
import { withCacheBreakpoints, type PromptCacheMode } from './prompt-cache';

/**
 * The output contract of a run: its own `outputSchema`, else its agent's. A run schema the validator
 * cannot use ends the run with what is wrong (the client checks it too, before starting).
 */
export function outputContractFor(agent: AgentDefinition, runSchema: Record<string, unknown> | undefined): OutputContract | undefined {
  if (runSchema) {
    try {
      return outputContractOf(runSchema, "The run's outputSchema");
    } catch (error) {
      throw ApplicationFailure.create({ type: FailureType.InvalidRunInput, nonRetryable: true, message: (error as Error).message });
    }
  }
  return agent.outputSchema === undefined ? undefined : outputContractOf(agent.outputSchema, `The outputSchema of agent "${agent.name}"`);
}

export interface ModelRequestInput {
  registry: AgentRegistry;
  agent: AgentDefinition;
  messages: ConversationMessage[];
  contract: OutputContract | undefined;
  /** Tools this run has besides the agent's own (delegate_task, handoff). */
  extraTools?: ModelToolSpec[];
  cache: PromptCacheMode;
  /** The model id of each tier, from the worker's settings. */
  models: Record<ModelTier, string>;
  /** The run's own model id and effort, which win over the agent's. */
  overrides?: { model?: string; effort?: Effort };
}

/** The model a request goes to: the run's id, else the agent's, else its tier's. */
export function modelIdFor(agent: Pick<AgentDefinition, 'model' | 'modelTier'>, models: Record<ModelTier, string>, runModel?: string): string {
  return runModel ?? agent.model ?? models[agent.modelTier];
}

/**
 * The agent's thinking, effort, temperature and server tools as request fields, each only when set,
 * so an agent that sets none sends the request it always did.
 */
function modelOptionFields(agent: AgentDefinition, effort: Effort | undefined): Partial<Anthropic.MessageCreateParamsNonStreaming> {
  return {
    ...(agent.thinking ? { thinking: agent.thinking as Anthropic.ThinkingConfigParam } : {}),
    ...(effort ? { output_config: { effort } } : {}),
    ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
  };
}

/**
 * One turn's Messages API request: the agent's model, system prompt and tools (completion tools with
 * an `output` field when the run wants a typed result), and the conversation, with prompt-caching
 * breakpoints. Everything before the last message is the same from turn to turn, so it is cached.
 */
export function buildModelRequest(input: ModelRequestInput): Anthropic.MessageCreateParamsNonStreaming {
  const { agent, contract } = input;
  const specs = [...input.registry.modelTools(agent.name), ...(input.extraTools ?? [])];
  const own = (contract ? withOutputField(specs, agent.completionTools, contract) : specs) as Anthropic.Tool[];
  // Server tools go as the API defines them; the API runs them, and the last one carries the tools' cache mark.
  const tools = [...own, ...(agent.serverTools as unknown as Anthropic.Tool[])];
  const system = buildSystemPrompt(agent.systemPrompt, { completionTools: agent.completionTools, typedOutput: contract !== undefined });
  const cached = withCacheBreakpoints({ system, tools, messages: input.messages as Anthropic.MessageParam[] }, input.cache);
  const model = modelIdFor(agent, input.models, input.overrides?.model);
  return { model, max_tokens: agent.maxTokens, ...modelOptionFields(agent, input.overrides?.effort ?? agent.effort), ...cached };
}
