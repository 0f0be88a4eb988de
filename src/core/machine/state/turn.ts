import { z } from 'zod';

/**
 * The turn slice: the loop's counter and the model call in flight. on-model counts the iteration,
 * opens the turn and records the model call's retries; settle closes the turn; fork-state clears
 * the model call.
 * The `turn` field itself (the tool calls of the current turn) is still composed in run-state.ts,
 * beside `TurnSchema`, while the call stage rewrite changes those schemas; it moves here after.
 */

/** A model call that has been asked for and has not answered yet (retries included). */
export const ModelCallSchema = z.object({
  attempt: z.number().int().min(1),
  /** Set while the API is unavailable: why, and when the next attempt starts. */
  lastError: z.string().optional(),
  nextAttemptAt: z.string().optional(),
});
export type ModelCall = z.infer<typeof ModelCallSchema>;

export const TurnSliceSchema = z.object({
  iteration: z.number().int().min(0),
  modelCall: ModelCallSchema.optional(),
});
export type TurnSlice = z.infer<typeof TurnSliceSchema>;
