import type { ModelClient } from '../model/providers/model-client';
import type { ModelTier } from '../../contract/model-tiers';
import { usageFrom } from '../model/usage';
import { inModelSpan, recordModelResponse } from '../observability/genai-spans';

/**
 * A fast-tier model asked one question with instructions, answering on its first line with one of
 * `words` (e.g. PASS/TRIP, ALLOW/REJECT/ASK) and a reason after a colon. Anything else is `undefined`,
 * and the caller treats it as the safe answer.
 */
export async function askModelJudge<W extends string>(
  client: ModelClient,
  /** The model id of each tier, from the worker's settings: judges use the fast one. */
  models: Record<ModelTier, string>,
  args: { instructions: string; subject: unknown; words: readonly W[] },
): Promise<{ word: W; reason: string } | undefined> {
  const model = models.fast;
  const response = await inModelSpan({ model, maxTokens: 300, purpose: 'judge' }, async (span) => {
    const answer = await client.messages.create({
      model,
      max_tokens: 300,
      system: `${args.instructions}\n\nAnswer on the first line with exactly one of ${args.words.join(', ')}, then a colon and a one-sentence reason.`,
      messages: [{ role: 'user', content: JSON.stringify(args.subject, null, 2) }],
    });
    recordModelResponse(span, { id: answer.id, model: answer.model, stopReason: answer.stop_reason, usage: usageFrom(answer.usage), toolCalls: 0 });
    return answer;
  });
  const text = response.content.map((b) => (b.type === 'text' ? b.text : '')).join('').trim();
  const match = /^\s*([A-Za-z_]+)\s*:?\s*(.*)$/s.exec(text.split('\n')[0] ?? '');
  const word = args.words.find((w) => w.toLowerCase() === match?.[1]?.toLowerCase());
  return word ? { word, reason: match?.[2]?.trim() || text } : undefined;
}
