// One parked tool call. The four buttons are a contract: Approve, Reject, Always, Never. "Edit" opens
// the call's arguments, shows the change, and approves the edited call.
import { useState } from 'preact/hooks';
import { decide } from './api.js';
import { CallArguments } from './call-arguments.js';
import { EditArguments } from './edit-arguments.js';
import { html } from './html.js';
import { waited } from './time.js';

export function RunLabel({ item }) {
  const sub = item.workflowId !== item.rootWorkflowId;
  return html`<div class="run-label">
    <a href=${`#/runs/${encodeURIComponent(item.rootWorkflowId)}`}>${item.rootWorkflowId}</a>
    ${sub ? html` › sub-agent <a href=${`#/runs/${encodeURIComponent(item.workflowId)}`}>${item.workflowId}</a>` : null}
    <span class="agent">${item.agent}</span>
  </div>`;
}

export function ApprovalCard({ item, selected, now, onSelect }) {
  const [busy, setBusy] = useState(false);
  const [wholeTool, setWholeTool] = useState(false);
  const [result, setResult] = useState(undefined);
  const [editing, setEditing] = useState(false);
  const send = async (decision, edited) => {
    setBusy(true);
    const response = await decide(item, decision, { wholeTool, arguments: edited });
    setResult(response.data);
    setBusy(false);
  };
  return html`<article class=${`card approval${selected ? ' selected' : ''}${item.canDecide ? '' : ' read-only'}`} data-key=${item.key} onClick=${onSelect}>
    <header>
      <span class="tool">${item.tool}</span>
      <span class="waited" title=${item.since}>waiting ${waited(item.since, now)}</span>
    </header>
    <${RunLabel} item=${item} />
    <p class="task">${item.task}</p>
    <p class="rule"><strong>Why it asks:</strong> ${item.reason}</p>
    ${item.context ? html`<blockquote class="context"><strong>The model said:</strong> ${item.context}</blockquote>` : null}
    <${CallArguments} args=${item.arguments} />
    ${item.canDecide && editing
      ? html`<${EditArguments} input=${item.input} busy=${busy} onSend=${(edited) => send('approve', edited)} onCancel=${() => setEditing(false)} />`
      : null}
    ${item.canDecide && !editing
      ? html`<div class="actions">
          <button class="approve" disabled=${busy} onClick=${() => send('approve')}>Approve</button>
          <button class="reject" disabled=${busy} onClick=${() => send('reject')}>Reject</button>
          <button class="always" disabled=${busy} onClick=${() => send('approve_always')} title="Approve, and from now on approve calls like this one">Always</button>
          <button class="never" disabled=${busy} onClick=${() => send('reject_always')} title="Reject, and from now on reject calls like this one">Never</button>
          <button class="edit" disabled=${busy} onClick=${() => setEditing(true)} title="Change the arguments, then approve the edited call">Edit</button>
          <label class="whole-tool"><input type="checkbox" checked=${wholeTool} onChange=${(e) => setWholeTool(e.currentTarget.checked)} /> Always/Never for every ${item.tool} call</label>
        </div>`
      : null}
    ${item.canDecide ? null : html`<p class="read-only-note">Read-only. ${item.readOnlyReason}</p>`}
    ${result && result.outcome !== 'applied' ? html`<p class=${`result ${result.outcome}`} role="status">${result.message ?? result.error}</p>` : null}
  </article>`;
}
