import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import { AgentStatusKey } from './search-attributes';
import type { RunPhase, RunState } from './run-state';
import { taskProgress } from './task-progress';

/** Markdown for the Web UI's "current details": progress and what the run is waiting for. */
function details(state: RunState): string {
  const lines = [`**${state.input.agent}** · ${state.phase} · iteration ${state.iteration}/${state.input.maxIterations}`];
  const progress = taskProgress(state.tasks);
  if (progress.total > 0) lines.push('', progress.text, ...progress.lines.map((l) => `- ${l}`));
  if (state.pendingApprovals.length > 0) {
    lines.push('', '**Waiting for approval**');
    for (const p of state.pendingApprovals) {
      lines.push(`- \`${p.callId}\` ${p.tool} ${JSON.stringify(p.input).slice(0, 200)}`);
    }
    lines.push('', 'Send signal `approval` with `{"callId": "...", "decision": "approve"}` (or reject, approve_always, reject_always).');
  }
  if (state.pendingQuestion) {
    lines.push('', `**Question:** ${state.pendingQuestion.question}`, '', 'Answer with signal `userReply` `{"text": "..."}`.');
  }
  if (state.completion) lines.push('', `**Result (${state.completion.status}):** ${state.completion.summary}`);
  return lines.join('\n');
}

/** Moves the run to `phase` and keeps the Web UI's search attribute and details in step. */
export function setPhase(state: RunState, phase: RunPhase): void {
  const changed = state.phase !== phase;
  state.phase = phase;
  if (changed) upsertSearchAttributes([{ key: AgentStatusKey, value: phase }]);
  refreshDetails(state);
}

export function refreshDetails(state: RunState): void {
  setCurrentDetails(details(state));
}
