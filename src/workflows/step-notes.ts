/** The last model reply's thinking, when it thought: said in the summaries of the activities after it. */
export interface StepThought {
  iteration: number;
  tokens: number;
}

/**
 * What the Web UI's activity summary adds after a turn that thought, e.g. ` · turn 3 thought 812 tokens`.
 * Temporal fixes an activity's summary when it is scheduled, before the model answers, so a model call
 * cannot carry its own count: the tool calls of the turn and the next model call carry it instead.
 */
export function thoughtNote(thought: StepThought | undefined): string {
  return thought ? ` · turn ${thought.iteration} thought ${thought.tokens.toLocaleString('en-US')} tokens` : '';
}
