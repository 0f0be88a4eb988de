// What waits for a decision (a call, a question, a spend budget), across all runs, newest first. Keyboard: j/k move, a approves, r rejects.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { decide } from './api.js';
import { ApprovalCard } from './approval-card.js';
import { BudgetCard } from './budget-card.js';
import { html } from './html.js';
import { QuestionCard } from './question-card.js';
import { ApproveAll } from './run-approvals.js';
import { useNow } from './time.js';

const CARDS = { approval: ApprovalCard, question: QuestionCard, budget: BudgetCard };

const typing = (target) => target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * j/k/a/r act on what the page last rendered. The handler reads it from a ref set at each render, not
 * from its own closure: effects run only after the next frame, and on a busy machine a key pressed
 * in between would move from, or decide, the selection the page showed before.
 */
function useKeyboard(items, selectedKey, setSelectedKey) {
  const rendered = useRef({ items, selectedKey });
  rendered.current = { items, selectedKey };
  useEffect(() => {
    const onKey = (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      const { items, selectedKey } = rendered.current;
      const index = items.findIndex((i) => i.key === selectedKey);
      const move = (by) => {
        const next = items[Math.min(items.length - 1, Math.max(0, (index < 0 ? -1 : index) + by))];
        if (!next) return;
        setSelectedKey(next.key);
        document.querySelector(`[data-key="${CSS.escape(next.key)}"]`)?.scrollIntoView({ block: 'nearest' });
      };
      const item = items[index];
      if (event.key === 'j') move(1);
      else if (event.key === 'k') move(-1);
      else if ((event.key === 'a' || event.key === 'r') && item?.kind === 'approval' && item.canDecide) void decide(item, event.key === 'a' ? 'approve' : 'reject');
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setSelectedKey]);
}

/**
 * Runs with several calls the person may decide get one "Approve all" each (a `decideApprovals` update),
 * counted under the top-level run: it forwards its sub-agents' calls to the runs that wait for them.
 */
function ApproveAllBar({ items }) {
  // Exactly the cards shown, with the arguments shown: the console approves those or nothing.
  const shown = new Map();
  for (const item of items) {
    const run = item.rootWorkflowId ?? item.workflowId;
    if (item.kind === 'approval' && item.canDecide) shown.set(run, [...(shown.get(run) ?? []), item]);
  }
  const runs = [...shown].filter(([, calls]) => calls.length > 1);
  if (runs.length === 0) return null;
  return html`<ul class="approve-all-bar">${runs.map(([workflowId, calls]) => html`<li><code>${workflowId}</code> <${ApproveAll} workflowId=${workflowId} calls=${calls} /></li>`)}</ul>`;
}

export function Inbox({ items }) {
  const now = useNow();
  const [selectedKey, setSelectedKey] = useState(undefined);
  // Keep a selection while there is anything to select: the first item when the selected one left.
  const selected = items.some((i) => i.key === selectedKey) ? selectedKey : items[0]?.key;
  // The selection is a call, not a place in the list: pinned by its key before anything can act on it,
  // so a newer call arriving above it does not take the selection.
  useLayoutEffect(() => {
    if (selected !== undefined && selected !== selectedKey) setSelectedKey(selected);
  }, [selected, selectedKey]);
  useKeyboard(items, selected, setSelectedKey);
  return html`<section class="inbox" aria-label="Inbox">
    <h2>Inbox <span class="count">${items.length}</span></h2>
    <p class="hint keys"><kbd>j</kbd>/<kbd>k</kbd> move · <kbd>a</kbd> approve · <kbd>r</kbd> reject</p>
    ${items.length === 0 ? html`<p class="empty">Nothing waits for a decision.</p>` : null}
    <${ApproveAllBar} items=${items} />
    ${items.map((item) => {
      const Card = CARDS[item.kind] ?? QuestionCard;
      // Keyed by the arguments too: a call edited and parked again under its id gets a fresh card.
      return html`<${Card} key=${`${item.key}#${item.argumentsHash ?? ''}`} item=${item} now=${now} selected=${item.key === selected} onSelect=${() => setSelectedKey(item.key)} />`;
    })}
  </section>`;
}
