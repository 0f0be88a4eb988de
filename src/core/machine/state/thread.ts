import { z } from 'zod';
import { CompletionSchema } from '../../../contract/control-tools';

/**
 * The thread slice: a run that stays open for follow-up messages (input `followUps`). Written by
 * on-thread (a completion, the next message, close) and on-steer (messages that arrive mid-work).
 */

/** Every completion so far, and since when the thread waits for the next message. */
export const ThreadSchema = z.object({
  completions: z.array(CompletionSchema),
  idleSince: z.string().optional(),
  /** The iteration the current message started at; the cap counts from here. */
  iterationBase: z.number().int(),
  /** Messages that arrived while the agent was working, delivered when it would go idle. */
  inbox: z.array(z.string()),
  /** Who sent each inbox message, in step with `inbox` ('' when the sender gave no name). */
  inboxFrom: z.array(z.string()).optional(),
  /** Who sent the message the current turn works on; the audit log names them on its calls. */
  requestedBy: z.string().optional(),
  closeRequested: z.boolean(),
});

export const ThreadSliceSchema = z.object({
  thread: ThreadSchema.default({ completions: [], iterationBase: 0, inbox: [], closeRequested: false }),
});
export type ThreadSlice = z.infer<typeof ThreadSliceSchema>;
