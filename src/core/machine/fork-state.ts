import type { RunState } from './run-state';

/**
 * The state a fork starts from: the original's state after an iteration, made able to go on. Its
 * conversation is kept as it was stored, block for block (never rebuilt from text), with its tasks,
 * choices, decisions and usage; whatever ended the run or waited at that point is cleared, and a new
 * instruction, when given, joins the last user message (roles must alternate), marked as a person's.
 * The workflow then gives it its own id, conversation key and budget (`resumedFrom`, run-state-init.ts).
 */
export function forkState(original: RunState, at: { from: string; iteration: number; task?: string }): RunState {
  const state = structuredClone(original);
  state.outcome = undefined;
  state.completion = undefined;
  state.output = undefined;
  state.guardrailsChecked.output = false;
  state.modelCall = undefined;
  state.compacting = false;
  state.pendingQuestion = undefined;
  state.childWaiting = {};
  state.lastError = undefined;
  state.thread = { ...state.thread, idleSince: undefined, closeRequested: false, inbox: [], inboxFrom: undefined };
  if (at.task !== undefined) {
    const note = `[This run is a fork of ${at.from} after iteration ${at.iteration}. A person gives a new instruction from here:]\n${at.task}`;
    const last = state.messages[state.messages.length - 1];
    if (!last || last.role !== 'user') state.messages.push({ role: 'user', content: note });
    else if (typeof last.content === 'string') last.content = [{ type: 'text', text: last.content }, { type: 'text', text: note }];
    else last.content.push({ type: 'text', text: note });
  }
  return state;
}
