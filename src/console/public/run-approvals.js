// What the run view offers besides steering: the run's permission mode (and a switch), and "Approve
// all" for the calls the run (and its sub-agents) have parked, one `decideApprovals` update applied all or none.
import { useState } from 'preact/hooks';
import { act } from './api.js';
import { html } from './html.js';

const MODES = [
  ['default', 'default: the policy decides'],
  ['plan', 'plan: read only, writes and commands refused'],
  ['acceptEdits', 'acceptEdits: file writes run unasked'],
  ['dontAsk', 'dontAsk: refuse what would ask'],
];

/**
 * "Approve all N" for the parked calls of one run (the inbox and the run view both offer it): it sends
 * the calls shown, each with the hash of the arguments shown, and the console approves exactly those,
 * all or none; a call that changed or left since refuses the lot.
 */
export function ApproveAll({ workflowId, calls }) {
  const [busy, setBusy] = useState(false);
  const count = calls.length;
  const send = async () => {
    setBusy(true);
    const shown = calls.map((c) => ({ workflowId: c.workflowId || workflowId, callId: c.callId, argumentsHash: c.argumentsHash }));
    await act(`/api/runs/${encodeURIComponent(workflowId)}/approve-all`, { calls: shown }, (d) => d.message);
    setBusy(false);
  };
  return html`<button class="approve-all" disabled=${busy} onClick=${send} title="Approve the calls shown (this run's and its sub-agents'), all or none">Approve all ${count}</button>`;
}

export function RunApprovals({ detail }) {
  const s = detail.status;
  const [mode, setMode] = useState(s?.mode ?? 'default');
  if (!s || detail.execution !== 'RUNNING') return s?.mode ? html`<p class="mode">Mode: <strong>${s.mode}</strong></p>` : null;
  // Its sub-agents' calls too: the batch forwards them to the runs that wait for them.
  const parked = s.pendingApprovals;
  const switchMode = () => act(`/api/runs/${encodeURIComponent(detail.workflowId)}/mode`, { mode }, (d) => d.message);
  return html`<div class="run-approvals">
    <span class="mode">Mode: <strong class="current-mode">${s.mode ?? 'default'}</strong></span>
    <label>Switch to <select aria-label="Permission mode" value=${mode} onChange=${(e) => setMode(e.currentTarget.value)}>
      ${MODES.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
    </select></label>
    <button class="switch-mode" onClick=${switchMode}>Switch mode</button>
    ${parked.length > 0 ? html`<span class="parked">${parked.length} call(s) wait for approval <${ApproveAll} workflowId=${detail.workflowId} calls=${parked} /></span>` : null}
  </div>`;
}
