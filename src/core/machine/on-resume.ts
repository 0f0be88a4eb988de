import type { ConversationMessage } from '../../contract/messages';
import type { RunState } from './run-state';
import type { RunEvent } from './run-events';
import { onResumed } from './on-tool';
import type { TransitionContext } from './transition-context';

export type ResumedEvent = Extract<RunEvent, { type: 'resumed' }>;

/**
 * `agentctl resume`: the state of an ended run, made able to go on whichever way it ended. It stands
 * alone under its new id (a person resumes a run, not its parent), with a conversation of its own.
 * Its budget: `moreIterations` past those already used when asked for; otherwise its cap again once
 * it was reached, or up to the cap it had. A run that ended on its own (at its cap, or completed
 * blocked or partial) has its ending cleared and is told, at the end of the conversation, how it
 * ended. Calls it left running run again if their tool is safe to repeat (`onResumed`).
 */
export function onResume(state: RunState, event: ResumedEvent, ctx: TransitionContext): void {
  state.chain = { link: 0, resumedFrom: event.from };
  state.workflowId = event.workflowId;
  state.conversation = { key: event.conversationKey, generation: 0, syncedCount: 0 };
  state.lineage = { depth: 0, rootWorkflowId: event.workflowId };
  const used = state.iteration - state.thread.iterationBase;
  const cap = state.input.maxIterations;
  state.input.maxIterations = event.moreIterations !== undefined ? used + event.moreIterations : used >= cap ? used + cap : cap;
  const ending = state.outcome?.kind;
  if (ending === 'max_iterations' || ending === 'completed') reopenEnded(state, event.from);
  onResumed(state, event.from, ctx);
}

function reopenEnded(state: RunState, from: string): void {
  const note = [`This run continues an earlier run (${from}), which ${howItEnded(state)}`];
  if (state.completion?.next_steps) note.push(`Its next steps: ${state.completion.next_steps}`);
  note.push('Carry on with the work from where it stopped.');
  state.completion = undefined;
  state.output = undefined;
  state.guardrailsChecked.output = false;
  // A closed thread reopens working on the earlier request, then waits for follow-ups again.
  state.thread.idleSince = undefined;
  state.thread.closeRequested = false;
  tellModel(state.messages, note.join('\n'));
}

function howItEnded(state: RunState): string {
  if (!state.completion) return `stopped at its iteration cap after ${state.iteration} iteration(s) in all, before the work was done.`;
  return `ended ${state.completion.status} after ${state.iteration} iteration(s): ${state.completion.summary}`;
}

/** The note goes into the last user message (the results of the last turn): the API wants roles to alternate. */
function tellModel(messages: ConversationMessage[], note: string): void {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'user') messages.push({ role: 'user', content: note });
  else if (typeof last.content === 'string') last.content = `${last.content}\n\n${note}`;
  else last.content.push({ type: 'text', text: note });
}
