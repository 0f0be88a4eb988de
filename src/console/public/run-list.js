// Every run the console watches, newest first, with its live progress.
import { html } from './html.js';
import { shortTime } from './time.js';

const tokens = (usage) => (usage ? `${usage.inputTokens.toLocaleString()} in · ${usage.outputTokens.toLocaleString()} out` : '');

export function RunList({ runs }) {
  if (runs.length === 0) return html`<p class="empty">No runs yet. Start one above.</p>`;
  return html`<table class="runs">
    <thead><tr><th>Run</th><th>Agent</th><th>Phase</th><th>Progress</th><th>Tokens</th><th>Started (UTC)</th></tr></thead>
    <tbody>${runs.map(
      (r) => html`<tr class=${`phase-${r.phase ?? 'unknown'}`}>
        <td><a href=${`#/runs/${encodeURIComponent(r.workflowId)}`}>${r.workflowId}</a>${r.parentWorkflowId ? html`<div class="hint">sub-agent of ${r.parentWorkflowId}</div>` : null}
          ${r.task ? html`<div class="task-line">${r.task}</div>` : null}</td>
        <td>${r.agent ?? '?'}</td>
        <td><span class="phase">${r.phase ?? '?'}</span>${r.waiting > 0 ? html` <span class="badge">${r.waiting} waiting</span>` : null}
          ${r.execution !== 'RUNNING' ? html`<div class="hint">${r.execution.toLowerCase()}</div>` : null}</td>
        <td class="nowrap">${r.progress && r.progress.total > 0 ? `${r.progress.completed}/${r.progress.total} tasks` : ''}${r.iteration !== undefined ? html`<div class="hint">iteration ${r.iteration}/${r.maxIterations}</div>` : null}</td>
        <td>${tokens(r.usage)}</td>
        <td>${shortTime(r.startTime)}</td>
      </tr>`,
    )}</tbody>
  </table>`;
}
