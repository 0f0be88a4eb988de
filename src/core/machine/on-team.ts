import { DelegationSchema, HandoffSchema, delegateTask, handoff } from '../../contract/control-tools';
import { addUsage, type TokenUsage } from '../../contract/messages';
import { errorResult, markStarted, recordCall, toBlock } from './call-records';
import type { ChildWaiting } from '../../contract/run-records';
import type { ResolvedAgent } from '../../contract/resolved-agent';
import { pushBounded, StateLimits, type RunState, type TurnCall } from './run-state';
import type { TransitionContext } from './transition-context';

/** Tools that need the outside world (a child run, another agent's definition) although the workflow handles them. */
export const TEAM_TOOLS = new Set([delegateTask.name, handoff.name]);

/** The agents this run may delegate to: its agent's sub-agents and those its input names. */
export function allowedSubAgents(state: RunState): string[] {
  return [...new Set([...state.agent.subAgents, ...state.input.subAgents])];
}

/** The child run's workflow id: under the parent's, so a tree of runs reads as one in lists. */
export const childWorkflowId = (parent: string, callId: string) => `${parent}/sub-${callId}`;

function refuse(state: RunState, call: TurnCall, output: string): void {
  call.result = toBlock(call.id, errorResult(output));
  recordCall(state, { iteration: state.turn!.iteration, callId: call.id, tool: call.name, input: call.input, outcome: 'error' });
}

/**
 * Judges the team calls of a new turn: a delegation to an agent this run may not use, past the depth
 * or per-turn limit, or a second handoff in one turn, gets an error result at once that says the
 * limits; a valid one waits for its child run or the other agent's definition.
 */
export function screenTeamCalls(state: RunState): void {
  const turn = state.turn!;
  let delegations = 0;
  let handoffs = 0;
  for (const call of turn.calls) {
    if (call.result || !TEAM_TOOLS.has(call.name) || call.stage.kind !== 'control') continue;
    if (call.name === delegateTask.name) {
      const parsed = DelegationSchema.safeParse(call.input);
      const allowed = allowedSubAgents(state);
      const { maxDepth, maxPerTurn } = state.agent.delegation;
      if (!parsed.success) refuse(state, call, `Invalid arguments for delegate_task: expected { agent, task }.`);
      else if (!allowed.includes(parsed.data.agent)) refuse(state, call, `"${parsed.data.agent}" is not a sub-agent of this run. Sub-agents: ${allowed.join(', ') || 'none'}.`);
      else if (state.lineage.depth + 1 > maxDepth) refuse(state, call, `Sub-agents nest at most ${maxDepth} level(s) deep and this run is at level ${state.lineage.depth}; do the work yourself.`);
      else if (++delegations > maxPerTurn) refuse(state, call, `At most ${maxPerTurn} delegations per turn; delegate the rest in a later turn.`);
      continue;
    }
    const parsed = HandoffSchema.safeParse(call.input);
    if (!parsed.success) refuse(state, call, 'Invalid arguments for handoff: expected { agent, reason }.');
    else if (!state.agent.handoffs.includes(parsed.data.agent)) refuse(state, call, `This agent may not hand off to "${parsed.data.agent}". Handoff targets: ${state.agent.handoffs.join(', ') || 'none'}.`);
    else if (++handoffs > 1) refuse(state, call, 'Only one handoff per turn.');
  }
}

export function onChildStarted(state: RunState, callId: string, workflowId: string, ctx: TransitionContext): void {
  const call = state.turn?.calls.find((c) => c.id === callId);
  if (!call || call.result) return;
  markStarted(call, true);
  call.child = { workflowId };
  recordCall(state, { iteration: state.turn!.iteration, callId, tool: call.name, input: call.input, outcome: 'running' });
  ctx.emit(state, 'toolStarted', { tool: call.name, callId, arguments: call.input, child: workflowId }, callId);
}

/** What a finished sub-agent's run tells its parent. */
export interface ChildOutcome {
  status: string;
  completion?: { summary: string; status: string; next_steps?: string };
  output?: unknown;
  usage: TokenUsage;
  iterations: number;
}

/** The child's completion becomes the delegation's result; its usage rolls up into this run's. */
export function onChildFinished(state: RunState, callId: string, outcome: ChildOutcome | { error: string }, durationMs: number, ctx: TransitionContext): void {
  const call = state.turn?.calls.find((c) => c.id === callId);
  if (!call || call.result) return;
  const agent = (call.input as { agent?: string }).agent;
  const workflowId = call.child?.workflowId ?? '';
  if (call.child) delete state.childWaiting[call.child.workflowId];
  markStarted(call, false);
  let success = false;
  let text: string;
  if ('error' in outcome) {
    text = `Sub-agent ${agent} (${workflowId}) failed: ${outcome.error}`;
  } else {
    state.usage = addUsage(state.usage, outcome.usage);
    const c = outcome.completion;
    success = outcome.status === 'completed' && c?.status === 'success';
    text = c
      ? `Sub-agent ${agent} (${workflowId}) ended ${c.status} after ${outcome.iterations} iteration(s): ${c.summary}${c.next_steps ? `\nNext steps: ${c.next_steps}` : ''}`
      : `Sub-agent ${agent} (${workflowId}) ended ${outcome.status} after ${outcome.iterations} iteration(s) without a completion.`;
    if (outcome.output !== undefined) text += `\nOutput: ${JSON.stringify(outcome.output)}`;
  }
  call.result = toBlock(callId, { success, shouldContinue: true, output: text });
  recordCall(state, { iteration: state.turn!.iteration, callId, tool: call.name, input: call.input, outcome: success ? 'success' : 'error', durationMs });
  ctx.emit(state, 'toolEnded', { tool: call.name, callId, success, durationMs, arguments: call.input, child: workflowId, output: text.slice(0, 200) }, callId);
}

/** A sub-agent's run said what it waits for (empty: nothing any more). */
export function onChildWaiting(state: RunState, workflowId: string, waiting: ChildWaiting): void {
  const running = state.turn?.calls.some((c) => c.child?.workflowId === workflowId && !c.result);
  if (!running) return;
  if (waiting.approvals.length === 0 && waiting.questions.length === 0 && !waiting.budget) delete state.childWaiting[workflowId];
  else state.childWaiting[workflowId] = waiting;
}

/**
 * This run could not tell its parent what it waits for. Said once per parent and error in the
 * warnings (the run tries again whenever what it waits for changes), and as an `errorOccurred` event.
 */
export function onParentUnreachable(state: RunState, parent: string, error: string, ctx: TransitionContext): void {
  const warning = `could not tell its parent run ${parent} what it waits for (${error}); its approvals and questions may not show there: decide them on this run`;
  if (state.warnings.includes(warning)) return;
  pushBounded(state.warnings, warning, StateLimits.warnings);
  ctx.emit(state, 'errorOccurred', { message: warning, type: 'ParentUnreachable' }, `parent-${state.warnings.length}`);
}

/** The run now belongs to another agent: its instructions, tools, tier and approval rules from here on. */
export function onHandedOff(state: RunState, callId: string, agent: ResolvedAgent | { error: string }, ctx: TransitionContext): void {
  const call = state.turn?.calls.find((c) => c.id === callId);
  if (!call || call.result) return;
  if ('error' in agent) {
    refuse(state, call, `The handoff failed: ${agent.error}`);
    return;
  }
  const from = state.agent.name;
  const reason = (call.input as { reason?: string }).reason ?? '';
  state.agent = agent;
  call.result = toBlock(callId, { success: true, shouldContinue: true, output: `Handed off from ${from} to ${agent.name}. You are now ${agent.name}; continue the task.` });
  recordCall(state, { iteration: state.turn!.iteration, callId, tool: call.name, input: call.input, outcome: 'success' });
  ctx.emit(state, 'agentHandedOff', { from, to: agent.name, reason }, callId);
}
