// A question the agent asked (need_more_information), with a box for the answer.
import { useState } from 'preact/hooks';
import { answer } from './api.js';
import { RunLabel } from './approval-card.js';
import { html } from './html.js';
import { waited } from './time.js';

export function QuestionCard({ item, selected, now, onSelect }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState(undefined);
  const submit = async (event) => {
    event.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    const response = await answer(item, text);
    setResult(response.data);
    setBusy(false);
  };
  return html`<article class=${`card question${selected ? ' selected' : ''}`} data-key=${item.key} onClick=${onSelect}>
    <header><span class="tool">question</span><span class="waited" title=${item.since}>waiting ${waited(item.since, now)}</span></header>
    <${RunLabel} item=${item} />
    <p class="task">${item.task}</p>
    <p class="question-text">${item.question}</p>
    ${item.context ? html`<blockquote class="context">${item.context}</blockquote>` : null}
    <form class="answer" onSubmit=${submit}>
      <textarea aria-label="Your answer" placeholder="Your answer" value=${text} onInput=${(e) => setText(e.currentTarget.value)}></textarea>
      <button type="submit" disabled=${busy || !text.trim()}>Answer</button>
    </form>
    ${result && result.outcome !== 'applied' ? html`<p class=${`result ${result.outcome}`} role="status">${result.message ?? result.error}</p>` : null}
  </article>`;
}
