// Starts a run as the logged-in person (their remembered always/never choices apply).
import { useState } from 'preact/hooks';
import { act } from './api.js';
import { html } from './html.js';

export function StartForm() {
  const [agent, setAgent] = useState('general');
  const [task, setTask] = useState('');
  const [iterations, setIterations] = useState('');
  const [thread, setThread] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    setBusy(true);
    const maxIterations = iterations ? Number(iterations) : undefined;
    const result = await act('/api/runs', { agent, task, maxIterations, followUps: thread || undefined }, (d) => `Started ${d.workflowId}.`);
    setBusy(false);
    if (result.ok) {
      setTask('');
      window.location.hash = `#/runs/${encodeURIComponent(result.data.workflowId)}`;
    }
  };
  return html`<form class="start" onSubmit=${submit} aria-label="Start a run">
    <h2>Start a run</h2>
    <label>Agent <input name="agent" list="agents" value=${agent} onInput=${(e) => setAgent(e.currentTarget.value)} required /></label>
    <datalist id="agents"><option value="general" /><option value="reader" /></datalist>
    <label class="grow">Task <textarea name="task" value=${task} onInput=${(e) => setTask(e.currentTarget.value)} required placeholder="What should the agent do?"></textarea></label>
    <label>Max iterations <input name="maxIterations" type="number" min="1" value=${iterations} onInput=${(e) => setIterations(e.currentTarget.value)} placeholder="agent default" /></label>
    <label class="thread" title="After each completion the run waits for a follow-up message"><input type="checkbox" name="followUps" checked=${thread} onChange=${(e) => setThread(e.currentTarget.checked)} /> Thread (takes follow-ups)</label>
    <button type="submit" disabled=${busy || !task.trim()}>Start run</button>
  </form>`;
}
