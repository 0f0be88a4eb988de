// Editing a parked call's arguments before approving it: the person edits the JSON, and the page shows
// what changes, argument by argument, before anything is sent. The run checks the edit again (the
// tool's schema and the run's rules); this only has to be a JSON object.
import { useState } from 'preact/hooks';
import { html } from './html.js';
import { safeText } from './safe-text.js';

function parseDraft(text) {
  try {
    const value = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { error: 'The arguments must be a JSON object.' };
    return { value };
  } catch (error) {
    return { error: `Not JSON yet: ${error.message}` };
  }
}

/** The top-level arguments that differ, as unified-diff lines. */
export function argumentChanges(before, after) {
  const names = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const show = (name, value) => `${name}: ${JSON.stringify(value)}`;
  return names.flatMap((name) => {
    const old = before?.[name];
    const now = after?.[name];
    if (JSON.stringify(old) === JSON.stringify(now)) return [];
    return [...(old === undefined ? [] : [`-${show(name, old)}`]), ...(now === undefined ? [] : [`+${show(name, now)}`])];
  });
}

const line = (text) => html`<span class=${text.startsWith('+') ? 'add' : 'del'}>${`${text}\n`}</span>`;

/**
 * The box shows bidi overrides and other control characters escaped, like the rest of the page: the
 * escapes (`\u202e`) are JSON escapes, so the draft still decodes to the very same arguments, and
 * what a person pastes in is escaped the same way as it arrives.
 */
export function EditArguments({ input, busy, onSend, onCancel }) {
  const [draft, setDraft] = useState(() => safeText(JSON.stringify(input ?? {}, null, 2)));
  const parsed = parseDraft(draft);
  const changes = parsed.value ? argumentChanges(input, parsed.value) : [];
  return html`<div class="edit-arguments">
    <textarea aria-label="Edited arguments" rows="6" value=${draft} onInput=${(e) => setDraft(safeText(e.currentTarget.value))}></textarea>
    ${parsed.error ? html`<p class="hint edit-error">${parsed.error}</p>` : null}
    ${parsed.value && changes.length === 0 ? html`<p class="hint">No change yet.</p>` : null}
    ${changes.length > 0 ? html`<div class="edit-diff" aria-label="Changes to send"><p class="hint">The call will run with these changes:</p><pre class="diff">${changes.map(line)}</pre></div>` : null}
    <div class="actions">
      <button class="approve-edited" disabled=${busy || changes.length === 0} onClick=${() => onSend(parsed.value)}>Approve edited</button>
      <button class="cancel-edit" disabled=${busy} onClick=${onCancel}>Cancel edit</button>
    </div>
  </div>`;
}
