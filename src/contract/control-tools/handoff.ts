import { z } from 'zod';
import type { ControlTool } from './control-tool';

export const HandoffSchema = z.object({
  agent: z.string().min(1).describe('The agent to hand this run to, one of those listed in this tool\'s description'),
  reason: z.string().min(1).describe('Why that agent should take over'),
});
export type Handoff = z.infer<typeof HandoffSchema>;

export const handoff: ControlTool<typeof HandoffSchema> = {
  name: 'handoff',
  description:
    'Hand the whole run, with the conversation so far, to another agent better suited to it: from then on that agent ' +
    'works on it with its own instructions, tools and approval rules.',
  inputSchema: HandoffSchema,
};
