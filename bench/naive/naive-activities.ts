// Activities of the naive workflow: the model call takes the whole conversation as its input.
import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, ConversationMessage } from '../../src/contract/messages';
import type { Tool } from '../../src/runtime/tools/tool-definition';
import { runCalls } from '../overhead/plain-loop';

export function createNaiveActivities(options: { baseUrl: string; tools: readonly Tool[]; toolSpecs: unknown[]; system: string }) {
  const client = new Anthropic({ apiKey: 'bench', baseURL: options.baseUrl, maxRetries: 0 });
  return {
    async callModelWithConversation({ messages }: { messages: ConversationMessage[] }): Promise<ConversationMessage> {
      const response = await client.messages.create({
        model: 'bench',
        max_tokens: 1_024,
        system: options.system,
        tools: options.toolSpecs as Anthropic.Tool[],
        messages: messages as Anthropic.MessageParam[],
      });
      const content: ContentBlock[] = response.content.flatMap((b): ContentBlock[] =>
        b.type === 'text' ? [{ type: 'text', text: b.text }] : b.type === 'tool_use' ? [{ type: 'tool_use', id: b.id, name: b.name, input: b.input }] : [],
      );
      return { role: 'assistant', content };
    },
    async runNaiveTool(call: { name: string; input: unknown }): Promise<string> {
      const [result] = await runCalls(options.tools, [{ type: 'tool_use', id: 'naive', name: call.name, input: call.input } as Anthropic.ToolUseBlock]);
      return result!.content as string;
    },
  };
}

export type NaiveActivities = ReturnType<typeof createNaiveActivities>;
