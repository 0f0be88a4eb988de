// A run parked by its spend budget (issue 34): what it spent against its limits, and a "Raise" control
// that sends the new limits as the logged-in person. The run decides who may raise it: a person who is
// not one of its approvers is told so on the card, and sees the run's refusal if they try.
import { useState } from 'preact/hooks';
import { raise } from './api.js';
import { RunLabel } from './approval-card.js';
import { html } from './html.js';
import { waited } from './time.js';

/** "Spent $0.04 of $0.05 · 24000 of 100000 tokens": each limit the run has, and its tokens always. */
function spendText(item) {
  const usd = item.maxUsd !== undefined ? `$${item.spentUsd ?? 0} of $${item.maxUsd}` : undefined;
  const tokens = item.maxTokens !== undefined ? `${item.spentTokens} of ${item.maxTokens} tokens` : `${item.spentTokens} tokens`;
  return `Spent ${[usd, tokens].filter(Boolean).join(' · ')}`;
}

/** A limit as typed: undefined when left empty; the console and the run refuse anything not above the current one. */
const limitOf = (text) => (text.trim() === '' ? undefined : Number(text));

export function BudgetCard({ item, selected, now, onSelect }) {
  const [usd, setUsd] = useState('');
  const [tokens, setTokens] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState(undefined);
  const empty = usd.trim() === '' && tokens.trim() === '';
  const submit = async (event) => {
    event.preventDefault();
    if (empty) return;
    setBusy(true);
    const response = await raise(item, { maxUsd: limitOf(usd), maxTokens: limitOf(tokens) });
    setResult(response.data);
    setBusy(false);
  };
  return html`<article class=${`card budget${selected ? ' selected' : ''}`} data-key=${item.key} onClick=${onSelect}>
    <header><span class="tool">budget</span><span class="waited" title=${item.since}>waiting ${waited(item.since, now)}</span></header>
    <${RunLabel} item=${item} />
    <p class="task">${item.task}</p>
    <p class="spend">${spendText(item)}</p>
    <form class="raise" onSubmit=${submit}>
      ${item.maxUsd !== undefined
        ? html`<label>New max USD <input type="number" min="0" step="any" aria-label="New max USD" value=${usd} onInput=${(e) => setUsd(e.currentTarget.value)} /></label>`
        : null}
      ${item.maxTokens !== undefined
        ? html`<label>New max tokens <input type="number" min="0" step="1" aria-label="New max tokens" value=${tokens} onInput=${(e) => setTokens(e.currentTarget.value)} /></label>`
        : null}
      <button type="submit" disabled=${busy || empty}>Raise</button>
    </form>
    ${item.canDecide ? null : html`<p class="read-only-note">${item.readOnlyReason}</p>`}
    ${result && result.outcome !== 'applied' ? html`<p class=${`result ${result.outcome ?? 'refused'}`} role="status">${result.message ?? result.error}</p>` : null}
  </article>`;
}
