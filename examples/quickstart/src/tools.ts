// Your own tool: a zod schema for its arguments (the model sees it as JSON Schema) and what it does.
// `scope: 'write'` means the default approval policy asks a person before each call.
import { z } from 'zod';
import { defineTool, ToolResult } from 'durable-agent';

/** Tickets created so far; a real tool would call your ticket system here. */
export const tickets: { title: string; priority: string }[] = [];

export const createTicket = defineTool({
  name: 'create_ticket',
  description: 'Creates a support ticket with a title and a priority.',
  scope: 'write',
  inputSchema: z.object({
    title: z.string().min(3).describe('One line saying what is wrong'),
    priority: z.enum(['low', 'normal', 'urgent']),
  }),
  // Not safe to repeat: if a worker dies mid-call, the model is told the outcome is unknown instead.
  idempotent: false,
  timeoutSeconds: 30,
  async execute({ title, priority }, context) {
    tickets.push({ title, priority });
    return ToolResult.success(`ticket #${tickets.length} created (${priority}): ${title} [key ${context.idempotencyKey}]`);
  },
});
