import { ApplicationFailure } from '@temporalio/common';
import type { ConversationRef } from '../../contract/conversation-ref';
import type { ConversationStore } from '../conversation/conversation-store-types';
import type { ConversationMessage } from '../../contract/messages';
import { FailureType } from '../../contract/errors';

/**
 * Rebuilds the conversation an activity was handed by reference. When the store lacks the prefix
 * the workflow counted on, the activity fails with `ConversationStoreMiss` (non-retryable: retrying
 * on the same worker cannot help) and the workflow resends the conversation whole.
 */
export async function materialize(store: ConversationStore, ref: ConversationRef): Promise<ConversationMessage[]> {
  if (ref.baseCount === 0) return ref.append as ConversationMessage[];
  const stored = await store.load(ref.key, ref.owner, ref.tag);
  if (!stored || stored.tag !== ref.tag || stored.messages.length < ref.baseCount) {
    throw ApplicationFailure.create({
      type: FailureType.ConversationStoreMiss,
      nonRetryable: true,
      message: `This worker does not hold the first ${ref.baseCount} messages of ${ref.key}; the workflow will resend them.`,
    });
  }
  return [...stored.messages.slice(0, ref.baseCount), ...(ref.append as ConversationMessage[])];
}
