import { z } from 'zod';
import type { ApiBlock } from './messages';

export const ToolResultBlockSchema = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.string(),
  is_error: z.boolean().optional(),
});

/**
 * The API's own blocks (thinking, redacted thinking, server tool calls and their results, container
 * uploads). Loose objects: every field the API sent is kept, since it must come back exactly so (a
 * changed or missing thinking block is a 400). Checked only for the fields this runtime reads.
 */
const ApiBlockSchema: z.ZodType<ApiBlock> = z.union([
  z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() }),
  z.looseObject({ type: z.literal('server_tool_use'), id: z.string(), name: z.string(), input: z.unknown() }),
  z.looseObject({
    type: z.templateLiteral([z.string().min(1), z.literal('_tool_result')]),
    tool_use_id: z.string(),
    content: z.unknown(),
  }),
  z.looseObject({ type: z.literal('container_upload'), file_id: z.string() }),
]);

const BlockSchema = z.union([
  // Citations are the API's (their encrypted indexes must come back as sent): kept, never read.
  z.object({ type: z.literal('text'), text: z.string(), citations: z.array(z.unknown()).optional() }),
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown(), caller: z.unknown().optional(), toolset_name: z.string().optional() }),
  ToolResultBlockSchema,
  ApiBlockSchema,
]);

export const ConversationMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(BlockSchema)]),
});

/**
 * How the workflow hands a conversation to an activity: "the first `baseCount` messages you already
 * keep under `key`, followed by `append`". With `baseCount` 0 the whole conversation is in `append`.
 */
export const ConversationRefSchema = z.object({
  key: z.string().min(1),
  /** The run the conversation belongs to (its workflow id), so its entries can be deleted when it closes. */
  owner: z.string().optional(),
  baseCount: z.number().int().min(0),
  /** The tag of the write the first `baseCount` messages must come from (required when baseCount > 0). */
  tag: z.string().optional(),
  append: z.array(ConversationMessageSchema),
});
export type ConversationRef = z.infer<typeof ConversationRefSchema>;
