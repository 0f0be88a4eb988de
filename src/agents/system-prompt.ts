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

export function buildSystemPrompt(agentPrompt: string): string {
  return `${agentPrompt.trim()}\n${RUN_RULES}`;
}
