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
}

/**
 * One turn's Messages API request: the agent's model, system prompt and tools (completion tools with
 * an `output` field when the run wants a typed result), and the conversation, with prompt-caching
 * breakpoints. Everything before the last message is the same from turn to turn, so it is cached.
 */
export function buildModelRequest(input: ModelRequestInput): Anthropic.MessageCreateParamsNonStreaming {
  const { agent, contract } = input;
  const specs = [...input.registry.modelTools(agent.name), ...(input.extraTools ?? [])];
  const tools = (contract ? withOutputField(specs, agent.completionTools, contract) : specs) as Anthropic.Tool[];
  const system = buildSystemPrompt(agent.systemPrompt, { completionTools: agent.completionTools, typedOutput: contract !== undefined });
  const cached = withCacheBreakpoints({ system, tools, messages: input.messages as Anthropic.MessageParam[] }, input.cache);
  return { model: input.models[agent.modelTier], max_tokens: agent.maxTokens, ...cached };
}
