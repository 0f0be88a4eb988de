import { canonicalJson } from '../../core/approvals/canonical-json';
import { RULE_READ_ONLY } from '../../contract/tool-permission';
import { ToolResult } from '../../contract/tool-result';
import type { ActivityDeps } from '../../runtime/activities';
import { createRunTool, RunToolInputSchema, type RunToolInput } from '../../runtime/activities/run-tool';
import type { Tool } from '../../runtime/tools/tool-definition';
import type { RecordedToolCall } from './recorded-run';
import type { ShadowSession, ToolAnswer } from './shadow-session';

const ARGUMENTS_SHOWN = 300;

/** `write_file({"path":"a.txt",...})`, cut where the arguments are long. */
export function callText(tool: string, args: unknown): string {
  const json = JSON.stringify(args) ?? '';
  return `${tool}(${json.length > ARGUMENTS_SHOWN ? `${json.slice(0, ARGUMENTS_SHOWN - 1)}…` : json})`;
}

const isMcp = (name: string) => name.startsWith('mcp__');

/** Runs in a shadow: a read-scoped tool of the worker's own (MCP servers are not reached from a shadow). */
const runsInShadow = (tool: Tool | undefined): boolean => tool !== undefined && tool.scope === 'read' && !isMcp(tool.name);

const same = (recorded: RecordedToolCall | undefined, tool: string, args: unknown) => recorded !== undefined && recorded.tool === tool && canonicalJson(recorded.input) === canonicalJson(args);

/** A recorded call with the same tool and arguments, for a read-only call of a shadow that left the record. */
function sameCallAnywhere(session: ShadowSession, tool: string, args: unknown): RecordedToolCall | undefined {
  for (const call of session.recorded.toolCalls.values()) if (same(call, tool, args)) return call;
  return undefined;
}

function stub(session: ShadowSession, tool: Tool | undefined, name: string, args: unknown): ToolResult {
  const why = tool === undefined ? 'it is not a tool of this worker' : isMcp(name) && tool.scope === 'read' ? 'MCP servers are not reached from a shadow' : `it has side effects (scope ${tool.scope})`;
  return ToolResult.error(`Not run: this is a replay-lab shadow of run ${session.recorded.workflowId}, and ${name} is not run here because ${why}. It would run ${callText(name, args)}.`);
}

/** Who decided, as far as the comparison goes: a person (by signal or update alike), the policy, a handler. */
const decider = (via: string | undefined) => (via === 'signal' || via === 'update' ? 'person' : (via ?? 'policy'));

/** A call the recorded run let run one way (say, a person approved it) and the shadow another (its policy now allows it) is a decision divergence. */
function checkDecision(session: ShadowSession, recorded: RecordedToolCall, approval: { decision: string; via?: string } | undefined, iteration: number): void {
  const before = recorded.approval ?? { decision: 'policy_allow', via: 'policy' };
  const now = approval ?? { decision: 'policy_allow', via: 'policy' };
  if (before.decision === now.decision && decider(before.via) === decider(now.via)) return;
  session.diverge({ iteration, kind: 'decision', what: `call ${recorded.callId} (${recorded.tool}) was let run by ${decider(before.via)} (${before.decision}) in the recorded run, by ${decider(now.via)} (${now.decision}) in the shadow`, recorded: before, shadow: now });
}

/**
 * A shadow's tool activity. Nothing with side effects ever runs: a call the recorded run made at the
 * same point (same call id, tool and arguments, while the shadow's requests are the recorded ones) gets the recorded
 * result, so the conversation stays the recorded one; any other gets a stub that says what would have
 * run. Both are listed in `wouldRun`. A read-scoped call gets the recorded result where one matches,
 * and otherwise runs against the throwaway copy of the workspace, with a read-only permission.
 */
export function createShadowRunTool(deps: ActivityDeps, sessionOf: () => ShadowSession) {
  return async function runTool(raw: RunToolInput): Promise<ToolResult> {
    const session = sessionOf();
    const input = RunToolInputSchema.parse(raw);
    const iteration = input.iteration ?? 0;
    const tool = deps.registry.tools.get(input.tool);
    const byId = session.recorded.toolCalls.get(input.callId);
    const atSamePoint = !session.leftRecord && same(byId, input.tool, input.input);
    if (!session.leftRecord && !atSamePoint) {
      const what = byId ? `call ${input.callId} has other arguments than the recorded one` : `the recorded run did not run call ${input.callId} (${input.tool})`;
      session.diverge({ iteration, kind: 'tool_call', what, recorded: byId ? { tool: byId.tool, arguments: byId.input } : null, shadow: { tool: input.tool, arguments: input.input } });
    }
    if (atSamePoint) checkDecision(session, byId!, input.approval, iteration);
    const answered = (answer: ToolAnswer, result: ToolResult) => {
      session.toolCalls.set(input.callId, { tool: input.tool, iteration, answer });
      return result;
    };
    if (!runsInShadow(tool)) {
      // Unknown tools, writes, commands and MCP calls: never run here.
      if (tool !== undefined && tool.scope !== 'read') session.wouldRun.push({ iteration, callId: input.callId, tool: input.tool, arguments: input.input, call: callText(input.tool, input.input), recorded: atSamePoint });
      return atSamePoint ? answered('recorded', byId!.result) : answered('stubbed', stub(session, tool, input.tool, input.input));
    }
    const recorded = atSamePoint ? byId : session.leftRecord ? sameCallAnywhere(session, input.tool, input.input) : undefined;
    if (recorded) return answered('recorded', recorded.result);
    const workspaceRoot = await session.workspace();
    const run = createRunTool({ ...deps, workspaceRoot, audit: undefined });
    return answered('ran_read_only', await run({ ...input, permission: { ...RULE_READ_ONLY } }));
  };
}
