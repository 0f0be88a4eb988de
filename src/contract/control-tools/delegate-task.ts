import { z } from 'zod';
import type { ControlTool } from './control-tool';

export const DelegationSchema = z.object({
  agent: z.string().min(1).describe('The sub-agent to run, one of those listed in this tool\'s description'),
  task: z.string().min(1).describe('The sub-task, complete on its own: the sub-agent sees only this'),
});
export type Delegation = z.infer<typeof DelegationSchema>;

export const delegateTask: ControlTool<typeof DelegationSchema> = {
  name: 'delegate_task',
  description:
    'Hand a self-contained sub-task to a specialist sub-agent, which works on it with its own tools and answers with its ' +
    'completion (summary, status, output). Several delegate_task calls in one turn run at the same time.',
  inputSchema: DelegationSchema,
};
