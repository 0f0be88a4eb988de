// How runs read in a terminal: the status query, a tool call, progress, a result. Pure functions from
// data to lines, shared by `status`, `run`, `watch`, `result` and `npm start`.
import type { Task } from '../contract/control-tools';
import type { TokenUsage } from '../contract/messages';
import type { DecisionRecord, ToolCallRecord } from '../contract/run-records';
import type { RunStatus } from '../contract/run-status';
import { taskProgress } from '../core/machine/task-progress';
import type { RunOutcome } from './run-outcome';
import { terminalSafe } from './terminal-safe';

const OUTCOME_MARKS: Record<ToolCallRecord['outcome'], string> = { success: '✓', error: '✗', rejected: '⊘', waiting: '⏸', running: '…', unknown: '?' };

/** Control tools whose success is shown another way (progress, the question, the final summary). */
const QUIET_TOOLS = new Set(['update_tasks', 'complete_task', 'need_more_information']);

export function isQuietCall(call: ToolCallRecord): boolean {
  return QUIET_TOOLS.has(call.tool) && call.outcome === 'success';
}

/** "Progress: 3/5 tasks (60%)" and one indented line per task with its mark; nothing without tasks. */
export function renderProgress(tasks: readonly Task[], indent = '  '): string[] {
  const progress = taskProgress(tasks);
  if (progress.total === 0) return [];
  return [progress.text, ...progress.lines.map((line) => `${indent}${terminalSafe(line)}`)];
}

/** "✓ shell: ls -la (120 ms)", "⊘ write_file: notes.md (rejected)". */
export function renderToolCall(call: ToolCallRecord): string {
  const timing = call.durationMs === undefined ? '' : ` (${call.durationMs} ms)`;
  const note = call.outcome === 'rejected' ? ' (rejected)' : call.outcome === 'waiting' ? ' (waiting for approval)' : call.outcome === 'error' ? ' failed' : '';
  return `${OUTCOME_MARKS[call.outcome]} ${terminalSafe(call.summary)}${timing}${note}`;
}

/** "write_file approved by alice", "shell rejected: not now", "write_file timed out". */
export function renderDecision(d: DecisionRecord): string {
  const by = d.approver ? ` by ${terminalSafe(d.approver)}` : '';
  const why = d.reason ? `: ${terminalSafe(d.reason)}` : '';
  switch (d.decision) {
    case 'approve':
      return `👍 ${d.tool} approved${by}`;
    case 'approve_always':
      return `👍 ${d.tool} approved${by} (always, remembered)`;
    case 'reject':
      return `👎 ${d.tool} rejected${by}${why}`;
    case 'reject_always':
      return `👎 ${d.tool} rejected${by} (never, remembered)${why}`;
    case 'timed_out':
      return `⌛ ${d.tool} not decided in time; treated as rejected`;
    case 'policy_reject':
      return `⛔ ${d.tool} refused by policy${why}`;
    default:
      return `${d.tool}: ${d.decision}`;
  }
}

export function renderTokens(usage: TokenUsage): string {
  const read = usage.cacheReadInputTokens > 0 ? `, ${usage.cacheReadInputTokens.toLocaleString('en-US')} from cache` : '';
  const written = usage.cacheCreationInputTokens > 0 ? `, ${usage.cacheCreationInputTokens.toLocaleString('en-US')} written to cache` : '';
  const cache = `${read}${written}`;
  // Thinking is part of the output tokens (billed as output); server tool requests are billed apart.
  const thought = usage.thinkingTokens ? ` (${usage.thinkingTokens.toLocaleString('en-US')} thinking)` : '';
  const requests = Object.entries(usage.serverToolUse ?? {}).map(([name, n]) => `, ${n} ${name.replace(/_/g, ' ')} by the API`).join('');
  return `Tokens: ${usage.inputTokens.toLocaleString('en-US')} in / ${usage.outputTokens.toLocaleString('en-US')} out${thought}${cache}${requests}`;
}

/** How to decide a parked call from another terminal; the same commands `npm start` prints. */
export function approvalHint(workflowId: string, callIds: readonly string[]): string[] {
  const call = callIds.length > 1 ? ' <callId>' : '';
  return [
    `Approve: npx agentctl approve ${workflowId}${call}   (or --always)`,
    `Reject:  npx agentctl reject ${workflowId}${call} [--reason "..."]   (or --never)`,
  ];
}

/** The whole status query, as `agentctl status` prints it. */
export function renderStatus(status: RunStatus): string {
  const lines = [
    `Run ${status.workflowId} (agent ${status.agent}, user ${status.user})`,
    `Task: ${terminalSafe(status.task)}`,
    `Phase: ${status.phase} · iteration ${status.iteration}/${status.maxIterations}`,
  ];
  // Older runs' status has no such fields; only a run known to be unsandboxed says so.
  if (status.sandboxed === false) lines.push('Sandbox: none — tool commands of this run are NOT sandboxed (see docs/guides/security.md)');
  if (status.approvers) lines.push(`Approvers: ${status.approvers.join(', ')}${status.signedDecisions ? ' (signed decisions required)' : ''}`);
  else if (status.signedDecisions) lines.push('Decisions must be signed (the worker has an approver registry)');
  if (status.modelWait) {
    const wait = status.modelWait;
    lines.push(`Waiting for the model API: attempt ${wait.attempt} failed (${terminalSafe(wait.lastError ?? 'unavailable')}); next attempt at ${wait.nextAttemptAt}`);
  }
  const progress = renderProgress(status.tasks);
  if (progress.length > 0) lines.push('', ...progress);
  if (status.pendingApprovals.length > 0) {
    lines.push('', 'Waiting for approval:');
    for (const p of status.pendingApprovals) {
      lines.push(`  ${p.callId}  ${terminalSafe(p.tool)}  ${terminalSafe(JSON.stringify(p.input ?? {}).slice(0, 160))}`);
      lines.push(`    why: ${terminalSafe(p.reason)}${p.workflowId !== status.workflowId ? `  (run ${p.workflowId})` : ''}`);
    }
    lines.push(...approvalHint(status.workflowId, status.pendingApprovals.map((p) => p.callId)).map((l) => `  ${l}`));
  }
  if (status.pendingQuestion) {
    lines.push('', `Question: ${terminalSafe(status.pendingQuestion.question)}`);
    if (status.pendingQuestion.context) lines.push(`Context: ${terminalSafe(status.pendingQuestion.context)}`);
    lines.push(`  Answer: npx agentctl reply ${status.workflowId} "..."`);
  }
  // A "waiting" record is superseded by the record of the same call once it was decided and ran.
  const calls = status.recentToolCalls.filter(
    (c, i, all) => !isQuietCall(c) && !(c.outcome === 'waiting' && all.slice(i + 1).some((later) => later.callId === c.callId)),
  );
  if (calls.length > 0) {
    lines.push('', 'Recent tool calls:');
    for (const call of calls) lines.push(`  #${call.iteration} ${renderToolCall(call)}`);
  }
  lines.push('', renderTokens(status.usage));
  if (status.continueAsNewLinks > 0 || status.compactions > 0) {
    lines.push(`History: ${status.continueAsNewLinks} continue-as-new link(s), ${status.compactions} compaction(s)`);
  }
  if (status.completion) lines.push(`Result (${status.completion.status}): ${terminalSafe(status.completion.summary)}`);
  if (status.lastError) lines.push(`Error: ${terminalSafe(status.lastError)}`);
  for (const warning of status.warnings ?? []) lines.push(`Warning: ${terminalSafe(warning)}`);
  return lines.join('\n');
}

/** The end of a run: the agent's own summary, progress and tokens, or why it did not complete. */
export function renderOutcome(outcome: RunOutcome): string {
  const id = outcome.workflowId;
  switch (outcome.kind) {
    case 'cancelled':
      return `🛑 Run ${id} was cancelled.`;
    case 'terminated':
      return `🛑 Run ${id} was terminated${outcome.reason ? `: ${terminalSafe(outcome.reason)}` : ''}.`;
    case 'timed_out':
      return `⌛ Run ${id} timed out.`;
    case 'failed':
      return `❌ Run ${id} failed${outcome.type ? ` (${outcome.type})` : ''}: ${terminalSafe(outcome.message)}`;
    case 'completed': {
      const r = outcome.result;
      const lines =
        r.status === 'completed'
          ? [`✅ Run ${id} finished after ${r.iterations} iteration(s): ${r.completion?.status ?? 'done'}`]
          : [`⏹  Run ${id} stopped at the iteration cap (${r.iterations}) before the agent called complete_task.`];
      if (r.completion) lines.push(`Summary: ${terminalSafe(r.completion.summary)}`);
      if (r.completion?.next_steps) lines.push(`Next steps: ${terminalSafe(r.completion.next_steps)}`);
      if (r.output !== undefined) lines.push(`Output: ${terminalSafe(JSON.stringify(r.output, null, 2))}`);
      for (const warning of r.warnings ?? []) lines.push(`Warning: ${terminalSafe(warning)}`);
      lines.push(...renderProgress(r.tasks), renderTokens(r.usage));
      return lines.join('\n');
    }
  }
}
