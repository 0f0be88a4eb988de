import type { ConversationMessage } from '../../contract/messages';
import type { ConversationStore, StoredConversation } from '../../runtime/conversation/conversation-store-types';
import { attachmentKey, ATTACHMENT_LINE } from '../../runtime/conversation/tool-attachments';
import type { StoredPrefix } from './recorded-conversation';
import type { RecordedRun } from './recorded-run';

/**
 * What a replay may need beyond the history: conversation messages a store kept that no recorded
 * call wrote (a prompt that started from another run's entry), and the images and documents tools
 * returned (kept in the store, never in the history). Looked up in a conversation store the CLI can
 * reach, or in an export file's `bodies`.
 */
export interface StoredBodies {
  conversation(prefix: StoredPrefix): Promise<ConversationMessage[] | undefined>;
  attachments(owner: string, callId: string): Promise<StoredConversation | undefined>;
  /** Where they are looked for, as the error that names a missing one says it. */
  description: string;
}

/** Bodies read from a conversation store (AGENT_CONVERSATION_STORE, when the CLI can reach it). */
export function storeBodies(store: ConversationStore, description: string): StoredBodies {
  return {
    description,
    conversation: async (prefix) => (await store.load(prefix.key, prefix.owner, prefix.tag))?.messages,
    attachments: (owner, callId) => store.load(attachmentKey(owner, callId), owner, callId),
  };
}

/** An export's bodies, as exportRecordedRun wrote them. */
export interface ExportedBodies {
  conversations: { key: string; tag?: string; messages: ConversationMessage[] }[];
  attachments: { callId: string; stored: StoredConversation }[];
  /** What the export looked for and did not find, and where. */
  missing: string[];
}

export function exportedBodies(bodies: ExportedBodies, file: string): StoredBodies {
  return {
    description: `the export file ${file}`,
    conversation: async (prefix) => bodies.conversations.find((c) => c.key === prefix.key && c.tag === prefix.tag)?.messages,
    attachments: async (_owner, callId) => bodies.attachments.find((a) => a.callId === callId)?.stored,
  };
}

/** The tool calls of a run whose results name attachments the store kept. */
export function callsWithAttachments(recorded: RecordedRun): string[] {
  return [...recorded.toolCalls.values()].filter((call) => call.result.output.includes(ATTACHMENT_LINE)).map((call) => call.callId);
}
