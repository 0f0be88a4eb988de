// One run: tasks and progress, the model's text as it streams, recent tool calls, usage and cost, the
// completion, children, and cancel / resume / follow-up. Fed by the run's own event stream.
import { useEffect, useState } from 'preact/hooks';
import { act, eventStream } from './api.js';
import { html } from './html.js';
import { shortTime } from './time.js';
import { RunApprovals } from './run-approvals.js';

// Plain symbols, not emoji: a machine without an emoji font (headless servers) shows them too.
const MARKS = { completed: '✓', in_progress: '▶', pending: '○', failed: '✗', skipped: '–' };
const OUTCOME = { success: '✓', error: '✗', rejected: '⊘', waiting: '…', running: '▶', unknown: '?' };

function useRunEvents(workflowId) {
  const [state, setState] = useState({ detail: undefined, error: undefined });
  useEffect(() => {
    setState({ detail: undefined, error: undefined });
    const source = eventStream(`/api/runs/${encodeURIComponent(workflowId)}/events`);
    source.addEventListener('run', (e) => setState({ detail: JSON.parse(e.data), error: undefined }));
    source.addEventListener('run-error', (e) => setState((s) => ({ ...s, error: JSON.parse(e.data).message })));
    return () => source.close();
  }, [workflowId]);
  return state;
}

function Tasks({ status }) {
  if (status.tasks.length === 0) return html`<p class="hint">No task list yet.</p>`;
  return html`<p class="progress-text">${status.progress.text}</p>
    <progress max="100" value=${status.progress.percent}></progress>
    <ul class="tasks">${status.tasks.map((t) => html`<li class=${`task-${t.status}`}>${MARKS[t.status] ?? ''} ${t.description}</li>`)}</ul>`;
}

/** "Fork from here": a new run from the state after this iteration, with an optional new instruction. */
function ForkFrom({ workflowId, iteration }) {
  const [open, setOpen] = useState(false);
  const [task, setTask] = useState('');
  if (!open) return html`<button class="fork" onClick=${() => setOpen(true)}>Fork from here</button>`;
  const fork = async (e) => {
    e.preventDefault();
    const result = await act(`/api/runs/${encodeURIComponent(workflowId)}/fork`, { iteration, task: task.trim() || undefined }, (d) => d.message);
    if (result.ok) window.location.hash = `#/runs/${encodeURIComponent(result.data.workflowId)}`;
  };
  return html`<form class="fork-form" onSubmit=${fork}>
    <input aria-label=${`New instruction for a fork after iteration ${iteration}`} value=${task} onInput=${(e) => setTask(e.currentTarget.value)} placeholder="New instruction (optional)" />
    <button>Start fork</button></form>`;
}

/** The run's timeline: a call's iteration can be forked once that iteration is over. */
function ToolCalls({ calls, workflowId, iteration, running }) {
  if (calls.length === 0) return html`<p class="hint">No tool calls yet.</p>`;
  const done = (c) => c.iteration < iteration || (!running && c.outcome !== 'waiting' && c.outcome !== 'running');
  return html`<table class="tool-calls"><thead><tr><th>#</th><th>Tool</th><th>Call</th><th>Outcome</th><th>Time</th><th></th></tr></thead>
    <tbody>${calls.map(
      (c) => html`<tr class=${`outcome-${c.outcome}`}><td>${c.iteration}</td><td>${c.tool}</td><td>${c.summary}</td><td>${OUTCOME[c.outcome] ?? ''} ${c.outcome}</td><td>${c.durationMs !== undefined ? `${c.durationMs} ms` : ''}</td>
        <td>${done(c) ? html`<${ForkFrom} workflowId=${workflowId} iteration=${c.iteration} />` : null}</td></tr>`,
    )}</tbody></table>`;
}

/** A thread's earlier answers (the latest one is the completion below). */
function ThreadCompletions({ status }) {
  const earlier = status.followUps ? status.completions.slice(0, status.phase === 'idle' || status.completion ? -1 : undefined) : [];
  if (earlier.length === 0) return null;
  return html`<section class="thread-completions" aria-label="Earlier answers"><h3>Earlier answers in this thread</h3>
    <ol>${earlier.map((c) => html`<li><strong>${c.status}:</strong> ${c.summary}</li>`)}</ol></section>`;
}

function Completion({ detail }) {
  const s = detail.status;
  if (s?.phase === 'idle' && s.completion) {
    return html`<section class=${`completion ${s.completion.status}`} aria-label="Completion">
      <h3>Answered: ${s.completion.status} · the thread waits for a follow-up</h3>
      <p class="summary">${s.completion.summary}</p>
    </section>`;
  }
  if (s?.completion) {
    return html`<section class=${`completion ${s.completion.status}`} aria-label="Completion">
      <h3>Completed: ${s.completion.status}</h3>
      <p class="summary">${s.completion.summary}</p>
      ${s.completion.next_steps ? html`<p><strong>Next steps:</strong> ${s.completion.next_steps}</p>` : null}
    </section>`;
  }
  if (s?.phase === 'max_iterations') return html`<section class="completion partial"><h3>Stopped at the iteration cap</h3><p>Resume it to go on.</p></section>`;
  if (s?.phase === 'budget_exhausted') return html`<section class="completion partial"><h3>Stopped: no one raised the budget in time</h3><p>Resume it to go on.</p></section>`;
  if (s?.phase === 'waiting_budget' && s.pendingBudget) {
    const b = s.pendingBudget;
    return html`<section class="completion partial" aria-label="Budget">
      <h3>Waiting for a budget raise</h3>
      <p>The next model call could cross the budget: spent ${b.maxUsd !== undefined ? `$${b.spentUsd ?? '?'} of $${b.maxUsd}` : ''} ${b.spentTokens} tokens${b.maxTokens !== undefined ? ` of ${b.maxTokens}` : ''}.</p>
      <p>An approver raises it: <code>agentctl budget ${detail.workflowId} --raise-usd N</code></p>
    </section>`;
  }
  if (detail.execution !== 'RUNNING') {
    return html`<section class="completion blocked"><h3>Ended: ${detail.execution.toLowerCase()}</h3>${s?.lastError ? html`<p>${s.lastError}</p>` : null}</section>`;
  }
  return null;
}

function Steer({ detail }) {
  const [iterations, setIterations] = useState('');
  const [message, setMessage] = useState('');
  const id = encodeURIComponent(detail.workflowId);
  // Every ended run resumes from its checkpoint (agentctl resume); one that succeeded has nothing left to do.
  const resumable =
    ['FAILED', 'CANCELLED', 'TERMINATED', 'TIMED_OUT'].includes(detail.execution) ||
    (detail.execution === 'COMPLETED' && (['max_iterations', 'budget_exhausted'].includes(detail.status?.phase) || ['partial', 'blocked'].includes(detail.status?.completion?.status)));
  const resume = async () => {
    const result = await act(`/api/runs/${id}/resume`, { maxIterations: iterations ? Number(iterations) : undefined }, (d) => d.message);
    if (result.ok) window.location.hash = `#/runs/${encodeURIComponent(result.data.workflowId)}`;
  };
  return html`<div class="steer">
    ${detail.execution === 'RUNNING' ? html`<button class="cancel" onClick=${() => act(`/api/runs/${id}/cancel`, {}, (d) => d.message)}>Cancel run</button>` : null}
    ${resumable
      ? html`<span class="resume"><input type="number" min="1" aria-label="Iterations for the resumed run" placeholder="iterations" value=${iterations} onInput=${(e) => setIterations(e.currentTarget.value)} />
          <button onClick=${resume}>Resume</button></span>`
      : null}
    ${detail.followUp
      ? html`<form class="follow-up" onSubmit=${(e) => { e.preventDefault(); void act(`/api/runs/${id}/messages`, { text: message }, (d) => d.message).then((r) => r.ok && setMessage('')); }}>
          <input aria-label=${detail.status?.followUps ? 'Follow-up message' : 'Steering message'} value=${message} onInput=${(e) => setMessage(e.currentTarget.value)}
            placeholder=${detail.status?.followUps ? 'Send the agent a follow-up' : 'Steer the agent: it reads this at its next step'} /><button>Send</button></form>`
      : null}
  </div>`;
}

/** Dollars with 2 decimals, or 4 for amounts under a cent (so a short run does not show $0.00). */
const usd = (amount) => `$${amount.toFixed(amount > 0 && amount < 0.01 ? 4 : 2)}`;

/** The estimate, or why there is none: never a made-up number. */
function Cost({ cost }) {
  if (!cost) return null;
  if (cost.unknown !== undefined) return html`<dt>Cost</dt><dd class="cost unknown">cost unknown (${cost.unknown})</dd>`;
  return html`<dt>Estimated cost</dt><dd class="cost" title="Every token of the run (summaries and sub-agents included) at this model's list price; set AGENT_MODEL_PRICES_FILE for your own prices">≈ ${usd(cost.usd)} <span class="hint">at ${cost.model} list prices</span></dd>`;
}

function Usage({ usage, cost }) {
  return html`<dl class="usage">
    <dt>Input tokens</dt><dd>${usage.inputTokens.toLocaleString()}</dd>
    <dt>Output tokens</dt><dd>${usage.outputTokens.toLocaleString()}</dd>
    ${usage.thinkingTokens ? html`<dt>of which thinking</dt><dd>${usage.thinkingTokens.toLocaleString()}</dd>` : null}
    ${Object.entries(usage.serverToolUse ?? {}).map(([name, n]) => html`<dt>${name.replace(/_/g, ' ')} (by the API)</dt><dd>${n.toLocaleString()}</dd>`)}
    <dt>Cache read</dt><dd>${usage.cacheReadInputTokens.toLocaleString()}</dd>
    <dt>Cache write</dt><dd>${usage.cacheCreationInputTokens.toLocaleString()}</dd>
    <${Cost} cost=${cost} />
  </dl>`;
}

export function RunView({ workflowId }) {
  const { detail, error } = useRunEvents(workflowId);
  if (!detail) return html`<section class="run-view"><p class="loading">${error ? `Cannot show ${workflowId}: ${error}` : `Loading ${workflowId}…`}</p></section>`;
  const s = detail.status;
  return html`<section class="run-view" aria-label="Run">
    <p><a href="#/">← All runs</a></p>
    <h2>${detail.workflowId}</h2>
    <p class="meta">
      <span class="agent">${s?.agent ?? ''}</span> · <span class="phase">${s?.phase ?? detail.execution}</span> · ${detail.execution.toLowerCase()}
      ${s ? html` · iteration ${s.iteration}/${s.maxIterations}` : null} · started ${shortTime(detail.startTime)}
      ${detail.temporalUiUrl ? html` · <a href=${detail.temporalUiUrl} target="_blank" rel="noopener noreferrer">Open in Temporal Web UI</a>` : null}
    </p>
    ${detail.parentWorkflowId ? html`<p>Sub-agent of <a href=${`#/runs/${encodeURIComponent(detail.parentWorkflowId)}`}>${detail.parentWorkflowId}</a></p>` : null}
    ${error ? html`<p class="notice error">${error}</p>` : null}
    ${detail.statusError ? html`<p class="notice info">The run's own report is unavailable: ${detail.statusError}</p>` : null}
    ${s ? html`<p class="task">${s.task}</p>` : null}
    <${Steer} detail=${detail} />
    <${RunApprovals} detail=${detail} />
    ${s ? html`<${ThreadCompletions} status=${s} />` : null}
    <${Completion} detail=${detail} />
    ${detail.liveText ? html`<section class="live" aria-label="Model output"><h3>Model is writing… (attempt ${detail.liveText.attempt})</h3>${detail.liveText.thinking ? html`<pre class="live-thinking" aria-label="Model thinking">${detail.liveText.thinking}</pre>` : null}<pre class="live-text">${detail.liveText.text}</pre></section>` : null}
    ${s ? html`<div class="columns">
      <section><h3>Tasks</h3><${Tasks} status=${s} /></section>
      <section><h3>Usage</h3><${Usage} usage=${s.usage} cost=${detail.cost} /></section>
    </div>
    <section><h3>Recent tool calls</h3><${ToolCalls} calls=${s.recentToolCalls} workflowId=${detail.workflowId} iteration=${s.iteration} running=${detail.execution === 'RUNNING'} /></section>
    ${s.decisions.length > 0 ? html`<section><h3>Decisions</h3><ul class="decisions">${s.decisions.map((d) => html`<li>${d.decision} <code>${d.tool}</code>${d.approver ? ` by ${d.approver}` : ''}${d.reason ? ` (${d.reason})` : ''} · ${shortTime(d.decidedAt)} via ${d.via}</li>`)}</ul></section>` : null}
    ${s.warnings.length > 0 ? html`<section><h3>Warnings</h3><ul>${s.warnings.map((w) => html`<li>${w}</li>`)}</ul></section>` : null}` : null}
    ${detail.children.length > 0 ? html`<section><h3>Sub-agents</h3><ul>${detail.children.map((c) => html`<li><a href=${`#/runs/${encodeURIComponent(c.workflowId)}`}>${c.workflowId}</a> ${c.agent ?? ''} · ${c.execution.toLowerCase()}</li>`)}</ul></section>` : null}
  </section>`;
}
