import { z } from 'zod';
import { describeZodError } from '../../contract/describe-zod-error';
import type { ShellAnalysis } from '../../contract/shell-analysis';
import type { ActivityDeps } from './activity-deps';
import { workspaceFor } from './run-tool';

export const CheckEditsInputSchema = z.object({
  agent: z.string(),
  workflowId: z.string(),
  edits: z.array(z.object({ callId: z.string(), tool: z.string(), arguments: z.unknown() })),
});
export type CheckEditsInput = z.input<typeof CheckEditsInputSchema>;

/** Per edited call: the problems with its arguments, or the worker's analysis of it (shell commands). */
export type EditCheck = { callId: string; ok: false; problem: string } | { callId: string; ok: true; analysis?: ShellAnalysis };

/**
 * Checks the arguments a person wrote for parked calls: they must fit the tool's input schema, and a
 * tool that is analysed (shell) gets the same analysis the model's own calls get, so the run's rules
 * judge the edit exactly as they would have judged the model asking for it. The tool's schema and
 * the Bash parser live on the worker, hence an activity; it reads and changes nothing.
 */
export function createCheckEdits(deps: ActivityDeps) {
  return async function checkEdits(raw: CheckEditsInput): Promise<EditCheck[]> {
    const input = CheckEditsInputSchema.parse(raw);
    const agent = deps.registry.agents.get(input.agent);
    const checks: EditCheck[] = [];
    for (const edit of input.edits) {
      // The agent's Nexus tools are its own (not in the worker's tool map); their edits are checked the same way.
      const tool = deps.registry.nexusTool(input.agent, edit.tool) ?? deps.registry.tools.get(edit.tool);
      if (!tool || !agent) {
        checks.push({ callId: edit.callId, ok: false, problem: `this worker does not have the tool ${edit.tool} of agent ${input.agent}, so the edit cannot be checked` });
        continue;
      }
      const parsed = tool.inputSchema.safeParse(edit.arguments);
      if (!parsed.success) {
        checks.push({ callId: edit.callId, ok: false, problem: `the edited arguments do not fit ${edit.tool}'s input schema: ${describeZodError(parsed.error).replace(/\n/g, '; ')}` });
        continue;
      }
      if (!tool.analyze) {
        checks.push({ callId: edit.callId, ok: true });
        continue;
      }
      try {
        checks.push({ callId: edit.callId, ok: true, analysis: await tool.analyze(parsed.data, { workspaceRoot: workspaceFor(deps.workspaceRoot, agent.workspace, input.workflowId).workspaceRoot }) });
      } catch (error) {
        checks.push({ callId: edit.callId, ok: true, analysis: { understood: false, problems: [`the worker could not analyse it: ${(error as Error).message}`], commands: [], writes: [] } });
      }
    }
    return checks;
  };
}
