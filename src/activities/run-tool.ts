import { Context } from '@temporalio/activity';
import { z } from 'zod';
import { WorkspaceEscapeError } from '../errors';
import { describeZodError } from '../tools/tool-definition';
import { capOutput } from '../tools/output-limits';
import { ToolResult } from '../tools/tool-result';
import type { ActivityDeps } from './activity-deps';

export const RunToolInputSchema = z.object({
  agent: z.string(),
  tool: z.string(),
  callId: z.string(),
  input: z.unknown(),
});
export type RunToolInput = z.infer<typeof RunToolInputSchema>;

/** How often the wrapper heartbeats, so a dead worker is noticed within the heartbeat timeout. */
const HEARTBEAT_MS = 2_000;

/**
 * Runs one tool call. Every failure a model can act on (bad arguments, an unknown tool, a refused
 * path, a thrown error) comes back as an error ToolResult instead of failing the activity, so the
 * loop goes on and the model can try something else. Only a dead worker or a timeout fails it.
 */
export function createRunTool(deps: ActivityDeps) {
  return async function runTool(raw: RunToolInput): Promise<ToolResult> {
    const input = RunToolInputSchema.parse(raw);
    const tool = deps.registry.tools.get(input.tool);
    const agent = deps.registry.agents.get(input.agent);
    if (!tool || !agent?.tools.includes(input.tool)) {
      return ToolResult.error(`Unknown tool "${input.tool}" for agent "${input.agent}".`);
    }
    const parsed = tool.inputSchema.safeParse(input.input);
    if (!parsed.success) {
      return ToolResult.error(
        `Invalid arguments for ${tool.name}:\n${describeZodError(parsed.error)}\nExpected schema: ${JSON.stringify(tool.jsonSchema)}`,
      );
    }
    const context = Context.current();
    const beat = setInterval(() => context.heartbeat(), HEARTBEAT_MS);
    try {
      const result = await tool.execute(parsed.data, {
        workspaceRoot: deps.workspaceRoot,
        signal: context.cancellationSignal,
        heartbeat: (details) => context.heartbeat(details),
      });
      return { ...result, output: capOutput(result.output) };
    } catch (error) {
      if (error instanceof WorkspaceEscapeError) return ToolResult.error(error.message);
      return ToolResult.error(`${tool.name} failed: ${(error as Error)?.message ?? String(error)}`);
    } finally {
      clearInterval(beat);
    }
  };
}
