import { pendingApprovalsOf } from './run-status';
import type { RunState } from './run-state';
import { taskProgress } from './task-progress';

/** Markdown for the Web UI's "current details": progress and what the run is waiting for. */
export function runDetails(state: RunState): string {
  const lines = [`**${state.input.agent}** · ${state.phase} · iteration ${state.iteration}/${state.input.maxIterations}`];
  if (!state.agent.sandboxed) lines.push('', '⚠️ Tool commands of this run are **not sandboxed**.');
  // Thinking is billed as output; each model call's own count is in its activity result (usage.thinkingTokens).
  if (state.usage.thinkingTokens) lines.push('', `Thinking: ${state.usage.thinkingTokens.toLocaleString('en-US')} of ${state.usage.outputTokens.toLocaleString('en-US')} output tokens so far.`);
  const progress = taskProgress(state.tasks);
  if (progress.total > 0) lines.push('', progress.text, ...progress.lines.map((l) => `- ${l}`));
  const wait = state.modelCall;
  if (wait?.nextAttemptAt) {
    lines.push('', `**Waiting for the model API** (attempt ${wait.attempt} failed: ${wait.lastError ?? 'unavailable'}); next attempt at ${wait.nextAttemptAt}.`);
  }
  const pending = pendingApprovalsOf(state);
  if (pending.length > 0) {
    lines.push('', '**Waiting for approval**');
    for (const p of pending) lines.push(`- \`${p.callId}\` ${p.tool} ${JSON.stringify(p.input).slice(0, 200)} (${p.reason})`);
    lines.push('', 'Send signal `approval` with `{"callId": "...", "decision": "approve"}` (or reject, approve_always, reject_always).');
  }
  if (state.pendingQuestion) {
    lines.push('', `**Question:** ${state.pendingQuestion.question}`, '', 'Answer with signal `userReply` `{"text": "..."}`.');
  }
  if (state.completion) lines.push('', `**Result (${state.completion.status}):** ${state.completion.summary}`);
  return lines.join('\n');
}
