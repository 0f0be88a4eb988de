import type { CompletionToolName } from '../../contract/control-tools/completion-tools';

/**
 * The part of every system prompt that explains how a run ends and how to work in it. Kept generic
 * (as in the completion-tool seeds): tool descriptions carry the specifics.
 */
export const RUN_RULES = `
## How this run works
- You act only through tools. Your turns loop until you call complete_task.
- A reply without a tool call does not end the task; you will be asked to continue.
- When the task is done, verify your work (re-read what you wrote), then call complete_task with a summary and status "success".
- If only part could be done, call complete_task with status "partial"; if you cannot go on, status "blocked" with the reason. Do not loop on the same failing step.
- If you need the user's input, call need_more_information.
- For work with several steps, keep a task list with update_tasks.
- Tool outputs are previews when large; ask for more only when you need it. For long work, use summarize_and_continue to keep key points.
- Some tools need a person's approval; a rejected call comes back as an error result: adapt instead of retrying it.`;

/** How the rules say to end a run, for an agent whose completion tool is one of the seeds'. */
const ENDING: Record<Exclude<CompletionToolName, 'complete_task'>, [loop: string, done: string, stuck: string]> = {
  task_completed: [
    'Your turns loop until you call task_completed.',
    'When the task is done, verify your work (re-read what you wrote), then call task_completed with a summary and success: true.',
    'If only part could be done, or you cannot go on, call task_completed with success: false and say why in the summary. Do not loop on the same failing step.',
  ],
  attempt_completion: [
    'Your turns loop until you call attempt_completion.',
    'When the task is done, verify your work (re-read what you wrote), then call attempt_completion with the result.',
    'If you cannot go on, call attempt_completion and say in the result what stopped you. Do not loop on the same failing step.',
  ],
};

const TYPED_OUTPUT_RULE = '- This run returns a typed result: give it as "output" when you end the task, matching the schema in that tool\'s input.';

export interface SystemPromptOptions {
  /** The agent's completion tools; the first one is the one the rules name. */
  completionTools?: readonly CompletionToolName[];
  /** The run must return an `output` matching a schema. */
  typedOutput?: boolean;
}

/** The rules for this agent: as written above for complete_task, with the seeds' wording for their tools. */
function runRules(completion: CompletionToolName): string {
  if (completion === 'complete_task') return RUN_RULES;
  const [loop, done, stuck] = ENDING[completion];
  return RUN_RULES.replace('Your turns loop until you call complete_task.', loop)
    .replace(/- When the task is done,.*\n/, `- ${done}\n`)
    .replace(/- If only part could be done,.*\n/, `- ${stuck}\n`);
}

export function buildSystemPrompt(agentPrompt: string, options: SystemPromptOptions = {}): string {
  const rules = runRules(options.completionTools?.[0] ?? 'complete_task');
  return `${agentPrompt.trim()}\n${rules}${options.typedOutput ? `\n${TYPED_OUTPUT_RULE}` : ''}`;
}
