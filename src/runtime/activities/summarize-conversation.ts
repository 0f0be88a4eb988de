import { Context } from '@temporalio/activity';
import { z } from 'zod';
import { ConversationRefSchema } from '../../contract/conversation-ref';
import type { ConversationMessage, TokenUsage } from '../../contract/messages';
import { streamMessage } from '../model/stream-message';
import { inModelSpan, recordModelResponse } from '../observability/genai-spans';
import { idleMsOf } from './call-model';
import { usageFrom } from '../model/usage';
import type { ActivityDeps } from './activity-deps';
import { materialize } from './conversation-sync';

export const SummarizeInputSchema = z.object({
  conversation: ConversationRefSchema,
  /** Summarize messages [from, to) of the rebuilt conversation. */
  from: z.number().int().min(0),
  to: z.number().int().min(0),
  task: z.string(),
  /**
   * The run's agent, so the summary goes through that agent's provider (Bedrock, Vertex...) like its
   * own calls. Absent in calls scheduled before it was sent: the worker's provider, as then.
   */
  agent: z.string().optional(),
});
export type SummarizeInput = z.infer<typeof SummarizeInputSchema>;

export interface SummarizeResult {
  summary: string;
  usage: TokenUsage;
}

const INSTRUCTIONS =
  'You compress the earlier part of an agent run so the agent can go on without it. Write a compact summary: ' +
  'what was done (files read or written, commands run and their results), facts learned, decisions taken, open problems. ' +
  'Keep names, paths and numbers exact. Do not invent anything. Answer with the summary only.';

/** How much of a server tool's result (search hits, fetched pages) the summarizer sees. */
const SERVER_RESULT_CHARS = 2_000;

/**
 * Renders messages as plain text for the summarizer; tool calls and their results stay together.
 * Thinking is left out: it is the model's private reasoning, its conclusions are in the text and the
 * calls, and the summary request itself runs without thinking (no blocks to carry over).
 */
export function transcript(messages: ConversationMessage[]): string {
  return messages
    .map((m) => {
      if (typeof m.content === 'string') return `${m.role.toUpperCase()}: ${m.content}`;
      return m.content
        .flatMap((b) => {
          if (b.type === 'text') return [`${m.role.toUpperCase()}: ${b.text}`];
          if (b.type === 'tool_use') return [`TOOL CALL ${b.name} ${JSON.stringify(b.input)}`];
          if (b.type === 'tool_result') return [`TOOL RESULT${b.is_error ? ' (error)' : ''}: ${b.content}`];
          if (b.type === 'server_tool_use') return [`SERVER TOOL CALL (ran by the API) ${b.name} ${JSON.stringify(b.input)}`];
          if (b.type === 'thinking' || b.type === 'redacted_thinking') return [];
          if (b.type === 'container_upload') return [`FILE PUT IN THE CODE CONTAINER (by the API) ${b.file_id}`];
          return [`SERVER TOOL RESULT (${b.type}): ${JSON.stringify(b.content).slice(0, SERVER_RESULT_CHARS)}`];
        })
        .join('\n');
    })
    .join('\n');
}

/**
 * Compaction's model call, on the fast tier through the agent's provider (a run on Bedrock is
 * summarized on Bedrock), without thinking: summarizes older turns the workflow is about to drop.
 */
export function createSummarizeConversation(deps: ActivityDeps) {
  return async function summarizeConversation(raw: SummarizeInput): Promise<SummarizeResult> {
    const input = SummarizeInputSchema.parse(raw);
    const messages = (await materialize(deps.conversations, input.conversation)).slice(input.from, input.to);
    const context = Context.current();
    const provider = input.agent === undefined ? undefined : deps.registry.agents.get(input.agent)?.provider;
    const model = deps.settings.model.tiers.fast;
    const facts = { model, maxTokens: 2_048, purpose: 'compaction' as const, workflowId: context.info.workflowExecution?.workflowId };
    const response = await inModelSpan(facts, async (span) => {
      const answer = await streamMessage(
        deps.anthropic(provider),
        {
          model,
          max_tokens: 2_048,
          system: INSTRUCTIONS,
          messages: [
            {
              role: 'user',
              content: `The task: ${input.task}\n\nThe part of the run to summarize:\n${transcript(messages)}`,
            },
          ],
        },
        { progress: (p) => context.heartbeat(p), signal: context.cancellationSignal, idleMs: idleMsOf(deps), attempt: context.info.attempt },
      );
      recordModelResponse(span, { id: answer.id, model: answer.model, stopReason: answer.stop_reason, usage: usageFrom(answer.usage), toolCalls: 0 });
      return answer;
    });
    const summary = response.content
      .map((b) => (b.type === 'text' ? b.text : ''))
      .join('\n')
      .trim();
    return {
      summary: summary || '(the summarizer returned nothing)',
      usage: usageFrom(response.usage),
    };
  };
}
