// How a schedule's outcome is printed: one line when it kept every invariant; otherwise the broken
// invariants, the schedule, the messages as they went and came back, and the command that replays it.
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import type { Evidence } from './evidence';
import { describeSchedule } from './schedule';
import type { Trace } from './executor';
import { INVARIANTS, type Invariant, type Violation } from './invariants';

export interface ScheduleResult {
  trace: Trace;
  evidence: Evidence;
  violations: Violation[];
}

/** Writes a schedule's trace, violations and every history of its runs under `dir/seed-N/`, for a closer look. */
export async function saveResult(dir: string, result: ScheduleResult): Promise<string> {
  const folder = path.join(dir, `seed-${result.trace.schedule.seed}`);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'report.txt'), `${fullReport(result)}\n`);
  await writeFile(path.join(folder, 'trace.json'), JSON.stringify({ trace: result.trace, violations: result.violations, audit: result.evidence.audit, markers: result.evidence.markers }, null, 2));
  for (const run of result.evidence.runs) {
    for (const [i, link] of run.links.entries()) {
      await writeFile(path.join(folder, `${run.workflowId.replace(/[^\w.-]+/g, '_')}.link${i}.json`), historyToJSON(link.history));
    }
  }
  return folder;
}

export function summaryLine(result: ScheduleResult): string {
  const { trace, violations } = result;
  const s = trace.schedule;
  const head = `seed ${s.seed} (${s.shape}, maxEvents ${s.maxEvents}${s.restarts ? ', restarts' : ''}): ${trace.messages.length} messages, ${trace.links} link(s), ${trace.closedAs}, ${(trace.elapsedMs / 1000).toFixed(1)} s`;
  if (violations.length === 0) return `${head}: ok`;
  const kinds = [...new Set(violations.map((v) => v.invariant))];
  return `${head}: ${violations.length} violation(s) of ${kinds.join(', ')}`;
}

export function messageTimeline(trace: Trace): string[] {
  const t0 = trace.messages[0]?.sentAt ?? 0;
  return trace.messages.map((m) => {
    const outcome = m.outcome ? ('message' in m.outcome ? `${m.outcome.type}: ${m.outcome.message.slice(0, 140)}` : m.outcome.type === 'answered' ? `answered (${m.outcome.phase})` : m.outcome.type) : 'NO ANSWER';
    const took = m.settledAt ? ` in ${m.settledAt - m.sentAt} ms` : '';
    return `    +${m.sentAt - t0}ms ${m.name} ${m.tag}${m.callIds.length ? ` [${m.callIds.join(', ')}]` : ''} link ${m.link}${m.edge ? ` (${m.edge} edge)` : ''} -> ${outcome}${took}`;
  });
}

export function fullReport(result: ScheduleResult): string {
  const { trace, violations } = result;
  const lines = [summaryLine(result)];
  for (const v of violations) lines.push(`  ✗ ${v.invariant}: ${v.detail}`);
  if (violations.length === 0) return lines.join('\n');
  lines.push(describeSchedule(trace.schedule).replace(/^/gm, '  '));
  lines.push('  messages:', ...messageTimeline(trace));
  if (trace.notes.length > 0) lines.push('  notes:', ...trace.notes.map((n) => `    ${n}`));
  lines.push(`  replay this schedule: npm run fuzz -- --seed ${trace.schedule.seed}`);
  return lines.join('\n');
}

/** The closing table: what was explored, how fast, and which seeds broke which invariant. */
export function finalTable(results: ScheduleResult[], elapsedMs: number): string {
  const seconds = elapsedMs / 1000;
  const lines = [
    '',
    `schedules: ${results.length}   time: ${seconds.toFixed(1)} s   schedules/s: ${(results.length / seconds).toFixed(3)}   messages: ${results.reduce((n, r) => n + r.trace.messages.length, 0)}   links: ${results.reduce((n, r) => n + r.trace.links, 0)}`,
    '',
    '| invariant | violations | seeds |',
    '| --- | --- | --- |',
  ];
  for (const invariant of Object.keys(INVARIANTS) as Invariant[]) {
    const hits = results.flatMap((r) => r.violations.filter((v) => v.invariant === invariant).map(() => r.trace.schedule.seed));
    lines.push(`| ${invariant} | ${hits.length} | ${[...new Set(hits)].join(' ') || '-'} |`);
  }
  return lines.join('\n');
}
