// How agentctl shows schedules in a terminal: times in the schedule's own time zone (with UTC beside
// them), what the overlap policy means, and every text a person or a model wrote made terminal-safe.
import { terminalSafe } from './terminal-safe';
import type { CreatedSchedule } from './schedules';
import type { TriggerOutcome } from './schedules-trigger';
import type { UpdatedSchedule } from './schedules-update';
import type { AgentScheduleDescription, AgentScheduleSummary } from './schedules-view';
import { restrictsBothDays } from './schedules-cron';

/** `2026-12-07 09:00 Europe/Berlin`: a time as the schedule's clock shows it. */
export function localTime(iso: string, timezone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${timezone}`;
}

const firingTime = (iso: string, timezone: string) => (timezone === 'UTC' ? localTime(iso, 'UTC') : `${localTime(iso, timezone)} (${iso.slice(11, 16)} UTC)`);

const OVERLAP_MEANING: Record<string, string> = {
  skip: 'a firing while a run of this schedule is open (parked on approval included) is skipped',
  buffer_one: 'a firing while a run is open waits for it to end (one at most)',
  buffer_all: 'firings while a run is open wait for it to end, in order',
  allow_all: 'every firing starts a run, whatever is open',
  cancel_other: 'a firing cancels the open run, then starts once it has ended',
  terminate_other: 'a firing terminates the open run and starts at once',
};

const safe = (text: string | undefined) => terminalSafe(text ?? '?');

export function renderScheduleList(schedules: AgentScheduleSummary[]): string {
  if (schedules.length === 0) return 'No agent schedules. Make one with agentctl schedule create <name> --agent A --task "..." --cron "0 9 * * 1".';
  const cells = schedules.map((s) => [
    safe(s.name),
    safe(s.agent),
    safe(s.cron),
    s.timezone,
    s.paused ? 'paused' : 'active',
    s.paused || !s.nextFirings[0] ? '-' : localTime(s.nextFirings[0], s.timezone),
    s.recentFirings.at(-1)?.workflowId ?? '-',
  ]);
  const header = ['NAME', 'AGENT', 'CRON', 'TIMEZONE', 'STATE', 'NEXT FIRING', 'LAST RUN'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  return [header, ...cells].map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

export function renderScheduleDescription(s: AgentScheduleDescription): string {
  const { agent, task, ...extra } = s.input as Record<string, unknown>;
  const lines = [
    `Schedule ${safe(s.name)}: ${s.paused ? `paused${s.note ? ` (${safe(s.note)})` : ''}` : 'active'}`,
    `  Agent:       ${safe(typeof agent === 'string' ? agent : s.agent)}`,
    `  Task:        ${safe(typeof task === 'string' ? task : s.task)}`,
    `  Cron:        ${safe(s.cron ?? '(not recorded: made by another tool)')} in ${s.timezone}`,
    `  Overlap:     ${s.overlap}: ${OVERLAP_MEANING[s.overlap] ?? 'see Temporal\'s documentation'}`,
    `  Task queue:  ${safe(s.taskQueue)}`,
    `  Runs named:  ${safe(s.workflowIdPrefix)}-<time of the firing>`,
  ];
  if (Object.keys(extra).length > 0) lines.push(`  Run input:   ${terminalSafe(JSON.stringify(extra))}`);
  lines.push(`  Next:        ${s.paused ? '(paused)' : s.nextFirings.slice(0, 3).map((t) => firingTime(t, s.timezone)).join(', ') || '(none)'}`);
  lines.push(`  Open runs:   ${s.openRuns.join(', ') || '(none)'}`);
  lines.push(`  Firings:     ${s.firingsTaken} started, ${s.firingsSkipped} skipped (a run was open), ${s.firingsMissed} missed (server unavailable)`);
  for (const f of s.recentFirings.slice(-5).reverse()) lines.push(`    ${f.workflowId}  started ${localTime(f.startedAt, s.timezone)}`);
  return lines.join('\n');
}

export function renderCreated(s: CreatedSchedule): string {
  const lines = [`Created schedule ${s.name}: agent ${safe(s.agent)}, "${safe(s.cron)}" in ${s.timezone}, overlap ${s.overlap}${s.paused ? ', paused' : ''}.`];
  if (!s.paused && s.nextFirings.length > 0) lines.push(`Next firings: ${s.nextFirings.slice(0, 3).map((t) => firingTime(t, s.timezone)).join(', ')}`);
  if (s.cron && restrictsBothDays(s.cron)) {
    lines.push('Note: both day fields are set; Temporal fires only on days that match both (a crontab fires on either).');
  }
  if (!s.agentChecked) lines.push(`Note: no worker polls task queue "${s.taskQueue}", so agent "${safe(s.agent)}" was not checked.`);
  lines.push(`Its runs are named ${s.workflowIdPrefix}-<time>; see them with agentctl list --agent ${safe(s.agent)}.`);
  return lines.join('\n');
}

export function renderTriggered(name: string, outcome: TriggerOutcome): string {
  if (outcome.outcome === 'started') return `Triggered ${name}: started ${outcome.workflowId}. Follow it: agentctl watch ${outcome.workflowId}`;
  if (outcome.outcome === 'skipped') {
    return `Triggered ${name}, but the overlap policy skipped it: ${outcome.openRuns.join(', ') || 'a run'} is still open. Trigger with --overlap allow_all to start one anyway.`;
  }
  return `Triggered ${name}; no run has started yet${outcome.openRuns.length > 0 ? ` (it waits for ${outcome.openRuns.join(', ')})` : ''}. See agentctl schedule describe ${name}.`;
}

export function renderUpdated(s: UpdatedSchedule): string {
  if (s.changed.length === 0) return `Schedule ${safe(s.name)} already had these settings; nothing changed.`;
  const lines = [`Updated schedule ${safe(s.name)} (${s.changed.join(', ')}): agent ${safe(s.agent)}, "${safe(s.cron)}" in ${s.timezone}, overlap ${s.overlap}${s.paused ? ', paused' : ''}.`];
  if (s.changed.includes('input')) lines.push(`Its next runs get task: ${safe(s.task)}`);
  if (!s.paused && s.nextFirings.length > 0) lines.push(`Next firings: ${s.nextFirings.slice(0, 3).map((t) => firingTime(t, s.timezone)).join(', ')}`);
  if (s.cron && restrictsBothDays(s.cron)) lines.push('Note: both day fields are set; Temporal fires only on days that match both (a crontab fires on either).');
  if (s.openRuns.length > 0) lines.push(`Its open runs go on as they started: ${s.openRuns.join(', ')}.`);
  return lines.join('\n');
}
