import { z } from 'zod';
import { SavedSummarySchema } from '../../../contract/control-tools';

/**
 * The compaction slice: what keeps a long conversation within the model's context. on-compacted
 * writes the summary and its bookkeeping; transition.ts and on-tool set and clear `compacting`;
 * on-model records the size of each prompt (`lastPrompt`), which compaction-plan.ts reads;
 * on-control-tool keeps the summaries the model saved itself (`save_summary`).
 */
export const CompactionSliceSchema = z.object({
  savedSummaries: z.array(SavedSummarySchema),
  conversationSummary: z.string().optional(),
  compactions: z.number().int(),
  /** A summarizer call is in flight. */
  compacting: z.boolean().default(false),
  /** The estimate right after the last compaction, so a still-large prompt is not summarized every turn. */
  compactedAt: z.object({ iteration: z.number().int(), estimate: z.number() }).optional(),
  /** The size of the latest prompt, as the API counted it; cleared when the conversation is compacted. */
  lastPrompt: z.object({ chars: z.number(), tokens: z.number() }).optional(),
});
export type CompactionSlice = z.infer<typeof CompactionSliceSchema>;
