// A user's own tools, defined with their own zod (the package's peer dependency, so one zod).
import { z } from 'zod';
import { defineTool, ToolResult } from 'durable-agent';

export const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Looks up an order by its number and says where it is.',
  scope: 'read',
  inputSchema: z.object({ orderId: z.string().regex(/^[A-Z]-\d+$/) }),
  async execute({ orderId }) {
    return ToolResult.success(`order ${orderId}: shipped on Monday`);
  },
});

// Returns `ToolResult.complete`: the run ends after this turn, with this output as its summary.
export const fileReport = defineTool({
  name: 'file_report',
  description: 'Files the final report; the work is done once it is filed.',
  scope: 'read',
  inputSchema: z.object({ text: z.string() }),
  async execute({ text }) {
    return ToolResult.complete(`report filed: ${text}`);
  },
});
