import { z } from 'zod';
import type { ActivityDeps } from './activity-deps';

export const ReleaseConversationInputSchema = z.object({ owner: z.string().min(1) });
export type ReleaseConversationInput = z.infer<typeof ReleaseConversationInputSchema>;

/** Deletes a closed run's conversation from the store (a shared folder would otherwise keep it forever). */
export function createReleaseConversation(deps: ActivityDeps) {
  return async function releaseConversation(raw: ReleaseConversationInput): Promise<void> {
    const { owner } = ReleaseConversationInputSchema.parse(raw);
    await deps.conversations.deleteRun(owner);
  };
}
