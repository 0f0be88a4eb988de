import { randomUUID } from 'node:crypto';
import type Anthropic from '@anthropic-ai/sdk';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { buildSystemPrompt } from '../agents/system-prompt';
import { ConversationRefSchema } from '../conversation/conversation-ref';
import type { ContentBlock, ConversationMessage, TokenUsage } from '../conversation/messages';
import { FailureType } from '../errors';
import { modelIdForTier } from '../model/model-tiers';
import { toModelFailure } from '../model/model-errors';
import { usageFrom } from '../model/usage';
import type { ActivityDeps } from './activity-deps';
import { materialize } from './conversation-sync';

export const CallModelInputSchema = z.object({
  agent: z.string(),
  iteration: z.number().int(),
  conversation: ConversationRefSchema,
});
export type CallModelInput = z.infer<typeof CallModelInputSchema>;

export interface CallModelResult {
  message: ConversationMessage;
  stopReason: string | null;
  model: string;
  usage: TokenUsage;
  /** Messages the activity now keeps under the conversation key (the prompt plus this reply). */
  storedCount: number;
  /** Tag of this write; the next call must present it to use the stored messages. */
  storedTag: string;
  /** Characters of the prompt's messages, to calibrate the workflow's token estimate. */
  promptChars: number;
}

/** One model turn: rebuild the conversation, call the Messages API with the agent's tools, keep the reply. */
export function createCallModel(deps: ActivityDeps) {
  return async function callModel(raw: CallModelInput): Promise<CallModelResult> {
    const input = CallModelInputSchema.parse(raw);
    const agent = deps.registry.agents.get(input.agent);
    if (!agent) {
      throw ApplicationFailure.nonRetryable(`Agent "${input.agent}" is not registered on this worker.`, FailureType.UnknownAgent);
    }
    const messages = await materialize(deps.conversations, input.conversation);
    const model = modelIdForTier(agent.modelTier);
    let response: Anthropic.Message;
    try {
      response = await deps.anthropic().messages.create({
        model,
        max_tokens: agent.maxTokens,
        system: buildSystemPrompt(agent.systemPrompt),
        tools: deps.registry.modelTools(agent.name) as Anthropic.Tool[],
        messages: messages as Anthropic.MessageParam[],
      });
    } catch (error) {
      throw toModelFailure(error);
    }
    const content: ContentBlock[] = [];
    for (const block of response.content) {
      if (block.type === 'text') content.push({ type: 'text', text: block.text });
      else if (block.type === 'tool_use') content.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input });
    }
    // The API rejects an empty assistant message later in the conversation, so keep a placeholder.
    if (content.length === 0) content.push({ type: 'text', text: '(no content)' });
    const message: ConversationMessage = { role: 'assistant', content };
    const tag = randomUUID();
    await deps.conversations.save(input.conversation.key, { messages: [...messages, message], tag });
    return {
      message,
      stopReason: response.stop_reason,
      model: response.model,
      usage: usageFrom(response.usage),
      storedCount: messages.length + 1,
      storedTag: tag,
      promptChars: JSON.stringify(messages).length,
    };
  };
}
