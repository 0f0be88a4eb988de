// Which workflow task wrote a decision line, and so whether it was on disk before the call it allows
// could start. (Since patch audit-after-commit the writer is an activity task: its completion event is
// written once the lines are on disk, and stands in for the marker below.) Sound because: a local
// activity's marker is recorded only once the activity finished
// (`recordAudit` returns after each line is written and fsynced), a workflow task's completion is
// written to the history at once with every command it carries, and the server starts an activity
// only after the event that schedules it is written. So a decision line is on disk before a call
// starts when the marker of the `recordAudit` that wrote it belongs to the same workflow task
// completion as the call's scheduling, or to an earlier one.
import type { LogLine } from './audit-lines';
import type { AuditMarker } from './history-facts';
import type { ProofContext } from './proof-context';

export type Anchor = { ok: true; marker: AuditMarker; by: 'receipt' | 'time' } | { ok: false; detail: string };

/**
 * The marker that wrote `line`. Markers hold the hash of each line they wrote (`AuditReceipt`); in a
 * link whose markers hold none (a worker of an earlier release), the line is tied to its workflow task
 * by its time, the workflow's clock when it decided, which is that task's start time, and the marker
 * is the first `recordAudit` after that start. That weaker tie cannot tell two flushes of one task apart.
 */
export function anchorLine(ctx: ProofContext, line: LogLine): Anchor {
  const { facts } = ctx;
  const byReceipt = facts.auditMarkers.find((m) => m.receipt?.includes(line.hash));
  if (byReceipt) return { ok: true, marker: byReceipt, by: 'receipt' };
  const link = facts.links.find((l) => l.runId === line.record.runId);
  if (!link) return { ok: false, detail: `its run id ${line.record.runId ?? '(none)'} is not a link of this run` };
  const markers = facts.auditMarkers.filter((m) => m.at.link === link.index);
  if (markers.some((m) => m.receipt !== undefined)) {
    return { ok: false, detail: `no recordAudit local activity of run ${link.runId} wrote it (their markers list the hashes of the lines they wrote, and not this line's): the line was added or rewritten later` };
  }
  const start = facts.taskStarts[link.index]?.get(Date.parse(line.record.at));
  if (start === undefined) return { ok: false, detail: `its time ${line.record.at} is the start of no workflow task of run ${link.runId}: it was not written by this run's workflow, or its time was changed` };
  const marker = markers.find((m) => m.at.event > start);
  if (!marker) return { ok: false, detail: `no recordAudit local activity completed in run ${link.runId} after the workflow task that decided (event ${start})` };
  return { ok: true, marker, by: 'time' };
}
