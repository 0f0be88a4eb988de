import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { Context } from '@temporalio/activity';
import { z } from 'zod';
import { WorkspaceEscapeError } from '../../contract/errors';
import { describeZodError } from '../tools/tool-definition';
import { capOutput } from '../tools/output-limits';
import { runnerForAgent } from '../tools/sandbox/agent-runner';
import { ToolResult } from '../../contract/tool-result';
import { keepAttachments } from '../conversation/tool-attachments';
import { networkGranted, RULE_READ_ONLY, ToolPermissionSchema } from '../../contract/tool-permission';
import { RUNS_FOLDER } from '../tools/workspace';
import { inToolSpan } from '../observability/genai-spans';
import type { ActivityDeps } from './activity-deps';
import { CallApprovalSchema } from '../../contract/decision';

export const RunToolInputSchema = z.object({
  agent: z.string(),
  tool: z.string(),
  callId: z.string(),
  input: z.unknown(),
  /** The run; its per-run workspace and the call's idempotency key derive from it. */
  workflowId: z.string().optional(),
  /** Whether the run lets its calls' processes reach the network; a call gets it only when its permission grants it too. */
  network: z.boolean().default(false),
  /**
   * Who let the call run, for the audit line written when it ends: the contract's Decision fields. The
   * decision is checked against the audit enum here, before the tool runs, so an unlisted kind fails
   * the call instead of its audit line.
   */
  approval: CallApprovalSchema.optional(),
  /**
   * Who let the call run and whether it may write (`ToolContext.permission`). Absent from workflows
   * of earlier releases: such a call gets the least, a read-only workspace.
   */
  permission: ToolPermissionSchema.default(() => ({ ...RULE_READ_ONLY })),
  iteration: z.number().int().optional(),
});
export type RunToolInput = z.input<typeof RunToolInputSchema>;

/** How often the wrapper heartbeats, so a dead worker is noticed within the heartbeat timeout. */
const HEARTBEAT_MS = 2_000;

// The folder of per-run workspaces lives with the workspace rules; re-exported for this module's callers.
export { RUNS_FOLDER };

/** A workflow id as one folder name: itself when it is a plain name, otherwise URI-encoded. */
export function folderName(workflowId: string): string {
  return /^[A-Za-z0-9._:@-]+$/.test(workflowId) && workflowId !== '.' && workflowId !== '..' ? workflowId : encodeURIComponent(workflowId);
}

/** Where a call's tools work, and which folders they must not see. */
export function workspaceFor(root: string, mode: 'shared' | 'per-run', workflowId: string | undefined): { workspaceRoot: string; hiddenPaths: string[] } {
  const runs = path.join(root, RUNS_FOLDER);
  if (mode === 'shared' || workflowId === undefined) return { workspaceRoot: root, hiddenPaths: [runs] };
  const own = path.join(runs, folderName(workflowId));
  mkdirSync(own, { recursive: true });
  return { workspaceRoot: own, hiddenPaths: [] };
}

/**
 * Runs one tool call. Every failure a model can act on (bad arguments, an unknown tool, a refused
 * path, a thrown error) comes back as an error ToolResult instead of failing the activity, so the
 * loop goes on and the model can try something else. Only a dead worker or a timeout fails it. The
 * call's audit line is written (and fsynced) before the activity reports back.
 */
export function createRunTool(deps: ActivityDeps) {
  return async function runTool(raw: RunToolInput): Promise<ToolResult> {
    const input = RunToolInputSchema.parse(raw);
    const context = Context.current();
    const started = Date.now();
    const workflowId = input.workflowId ?? context.info.workflowExecution?.workflowId ?? 'standalone';
    const facts = { tool: input.tool, callId: input.callId, agent: input.agent, workflowId, execution: context.info.isLocal ? ('local' as const) : ('activity' as const) };
    // Images and documents go to the conversation store; the workflow gets a line for each (tool-attachments.ts).
    const result = await keepAttachments(deps.conversations, workflowId, input.callId, await inToolSpan(facts, () => execute(deps, input, context)));
    await deps.audit?.append({
      at: new Date().toISOString(),
      kind: 'call',
      run: workflowId,
      runId: context.info.workflowExecution?.runId,
      agent: input.agent,
      iteration: input.iteration ?? 0,
      tool: input.tool,
      callId: input.callId,
      arguments: input.input,
      decision: input.approval?.decision ?? 'policy_allow',
      approver: input.approval?.approver,
      verified: input.approval?.verified,
      via: input.approval?.via ?? 'policy',
      requestedBy: input.approval?.requestedBy,
      outcome: result.success ? 'success' : 'error',
      durationMs: Date.now() - started,
      idempotencyKey: `${workflowId}/${input.callId}`,
    });
    return result;
  };
}

async function execute(deps: ActivityDeps, input: z.output<typeof RunToolInputSchema>, context: Context): Promise<ToolResult> {
  const tool = deps.registry.tools.get(input.tool);
  const agent = deps.registry.agents.get(input.agent);
  if (!tool || !agent?.tools.includes(input.tool)) {
    return ToolResult.error(`Unknown tool "${input.tool}" for agent "${input.agent}".`);
  }
  const parsed = tool.inputSchema.safeParse(input.input);
  if (!parsed.success) {
    return ToolResult.error(`Invalid arguments for ${tool.name}:\n${describeZodError(parsed.error)}\nExpected schema: ${JSON.stringify(tool.jsonSchema)}`);
  }
  const workflowId = input.workflowId ?? context.info.workflowExecution?.workflowId ?? 'standalone';
  const { workspaceRoot, hiddenPaths } = workspaceFor(deps.workspaceRoot, agent.workspace, workflowId);
  // A local activity (a quick tool, see workflows/activity-stubs.ts) has no heartbeat to send.
  const heartbeat = context.info.isLocal ? () => undefined : (details?: unknown) => context.heartbeat(details);
  const beat = setInterval(() => heartbeat(), HEARTBEAT_MS);
  try {
    const result = await tool.execute(parsed.data, {
      // A worker whose agents have no file tools made no workspace at start: a tool that asks for it
      // gets it made (the built-in tools and anything that runs a process do), one that never asks leaves none.
      get workspaceRoot() {
        mkdirSync(workspaceRoot, { recursive: true });
        return workspaceRoot;
      },
      signal: context.cancellationSignal,
      heartbeat,
      idempotencyKey: `${workflowId}/${input.callId}`,
      // The agent's own allow-list (`env` in its definition) adds to the worker's (AGENT_TOOL_ENV), and its `limits` apply.
      processes: runnerForAgent(deps.processes, agent),
      // The run (or agent) says whether the network may be used at all; the permission whether this call may.
      network: (input.network || agent.network) && networkGranted(input.permission),
      hiddenPaths,
      permission: input.permission,
      fileOwner: deps.processes.fileOwner,
    });
    return { ...result, output: capOutput(result.output) };
  } catch (error) {
    if (context.cancellationSignal.aborted) throw error;
    if (error instanceof WorkspaceEscapeError) return ToolResult.error(error.message);
    return ToolResult.error(`${tool.name} failed: ${(error as Error)?.message ?? String(error)}`);
  } finally {
    clearInterval(beat);
  }
}
