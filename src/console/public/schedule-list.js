// The schedules of the console's task queue: when each fires next (on its own clock), whether it is
// paused, its latest run, and three buttons. Polled, since schedules change rarely and by the clock.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { act, getJson } from './api.js';
import { html } from './html.js';

const POLL_MS = 5_000;

function useSchedules() {
  const [schedules, setSchedules] = useState(undefined);
  const load = useCallback(async () => {
    const answer = await getJson('/api/schedules');
    if (answer) setSchedules(answer.schedules);
  }, []);
  useEffect(() => {
    void load();
    const timer = setInterval(load, POLL_MS);
    return () => clearInterval(timer);
  }, [load]);
  return { schedules, reload: load };
}

function ScheduleRow({ schedule: s, reload }) {
  const [busy, setBusy] = useState(false);
  const name = encodeURIComponent(s.name);
  const run = async (action) => {
    setBusy(true);
    await act(`/api/schedules/${name}/${action}`, {}, (d) => d.message);
    setBusy(false);
    await reload();
  };
  return html`<tr class=${`schedule ${s.paused ? 'paused' : 'active'}`} data-schedule=${s.name}>
    <td>${s.name}${s.task ? html`<div class="task-line">${s.task}</div>` : null}</td>
    <td>${s.agent ?? '?'}</td>
    <td class="nowrap"><code>${s.cron ?? '?'}</code><div class="hint">${s.timezone} · overlap ${s.overlap}</div></td>
    <td class="next-firing nowrap" title=${s.nextFiring ?? ''}>${s.paused ? 'paused' : (s.nextFiringLocal ?? '-')}</td>
    <td class="state">${s.paused ? 'paused' : 'active'}${s.note ? html`<div class="hint">${s.note}</div>` : null}
      ${s.openRuns.length > 0 ? html`<div class="hint">${s.openRuns.length} run(s) open</div>` : null}</td>
    <td>${s.lastRun ? html`<a href=${`#/runs/${encodeURIComponent(s.lastRun)}`}>${s.lastRun}</a>` : '-'}</td>
    <td class="buttons nowrap">
      ${s.paused
        ? html`<button disabled=${busy} onClick=${() => run('unpause')}>Unpause</button>`
        : html`<button disabled=${busy} onClick=${() => run('pause')}>Pause</button>`}
      <button disabled=${busy} onClick=${() => run('trigger')} title="Start a run now, under the schedule's overlap policy">Run now</button>
    </td>
  </tr>`;
}

export function ScheduleList() {
  const { schedules, reload } = useSchedules();
  if (schedules === undefined) return html`<p class="loading">Loading…</p>`;
  if (schedules.length === 0) return html`<p class="empty">No schedules start runs on this task queue. Make one with <code>agentctl schedule create</code>.</p>`;
  return html`<table class="schedules">
    <thead><tr><th>Schedule</th><th>Agent</th><th>Cron</th><th>Next firing</th><th>State</th><th>Last run</th><th></th></tr></thead>
    <tbody>${schedules.map((s) => html`<${ScheduleRow} key=${s.name} schedule=${s} reload=${reload} />`)}</tbody>
  </table>`;
}
