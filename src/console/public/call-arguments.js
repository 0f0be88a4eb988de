// A pending call's arguments, as the server prepared them (see src/console/runs/call-arguments.ts).
// Newlines are interpolated as values: htm drops whitespace-only text that contains a newline.
import { html } from './html.js';

function lineClass(line) {
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return 'ctx';
}

const line = (cls, text) => html`<span class=${cls}>${`${text}\n`}</span>`;

function Diff({ hunks }) {
  if (hunks.length === 0) return html`<p class="hint">No change: the file already has this content.</p>`;
  return html`<pre class="diff">${hunks.map((h) => [line('hunk', `@@ -${h.oldStart} +${h.newStart} @@`), ...h.lines.map((l) => line(lineClass(l), l))])}</pre>`;
}

export function CallArguments({ args }) {
  if (args.kind === 'shell') {
    const extra = args.commands.length > 1 || (args.commands.length === 1 && args.commands[0] !== args.command);
    return html`<div class="args shell">
      <pre class="command">${`$ ${args.command}`}</pre>
      ${extra ? html`<div class="hint">Programs it runs, as the analyzer read them: <ul>${args.commands.map((c) => html`<li><code>${c}</code></li>`)}</ul></div>` : null}
    </div>`;
  }
  if (args.kind === 'write_file') {
    const verb = args.append ? 'Append to' : args.mode === 'new' ? 'Create' : 'Write';
    const body =
      args.mode === 'diff'
        ? html`<${Diff} hunks=${args.hunks} />`
        : html`${args.note ? html`<p class="hint">${args.note}</p>` : null}<pre class="diff">${args.content.split('\n').map((l) => line('add', `+${l}`))}</pre>`;
    return html`<div class="args write-file"><div class="path">${verb} <code>${args.path}</code></div>${body}</div>`;
  }
  return html`<pre class="args json">${args.text}</pre>`;
}
