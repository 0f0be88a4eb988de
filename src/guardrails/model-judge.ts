import type Anthropic from '@anthropic-ai/sdk';
import { modelIdForTier } from '../model/model-tiers';

/**
 * A fast-tier model asked one question with instructions, answering on its first line with one of
 * `words` (e.g. PASS/TRIP, ALLOW/REJECT/ASK) and a reason after a colon. Anything else is `undefined`,
 * and the caller treats it as the safe answer.
 */
export async function askModelJudge<W extends string>(
  client: Anthropic,
  env: NodeJS.ProcessEnv,
  args: { instructions: string; subject: unknown; words: readonly W[] },
): Promise<{ word: W; reason: string } | undefined> {
  const response = await client.messages.create({
    model: modelIdForTier('fast', env),
    max_tokens: 300,
    system: `${args.instructions}\n\nAnswer on the first line with exactly one of ${args.words.join(', ')}, then a colon and a one-sentence reason.`,
    messages: [{ role: 'user', content: JSON.stringify(args.subject, null, 2) }],
  });
  const text = response.content.map((b) => (b.type === 'text' ? b.text : '')).join('').trim();
  const match = /^\s*([A-Za-z_]+)\s*:?\s*(.*)$/s.exec(text.split('\n')[0] ?? '');
  const word = args.words.find((w) => w.toLowerCase() === match?.[1]?.toLowerCase());
  return word ? { word, reason: match?.[2]?.trim() || text } : undefined;
}
