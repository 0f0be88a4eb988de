// The cron of an agent schedule as the server keeps it. Temporal compiles a cron string into
// structured calendars and keeps no copy of the text, but it does keep a "#" comment on each calendar:
// the cron as written goes there, so a changed cron reads back as written (the memo, which cannot be
// changed after create, keeps the cron the schedule was made with).
import type { ScheduleSpec, ScheduleSpecDescription } from '@temporalio/client';

const MARK = 'cron: ';

/** The spec for a checked cron in `timezone`, carrying the cron as written in its calendars' comment. */
export function cronSpec(cron: string, timezone: string): ScheduleSpec {
  return { cronExpressions: [`${cron} # ${MARK}${cron}`], timezone };
}

/** The cron a spec was made from by `cronSpec`, or undefined (a spec from an older release or another tool). */
export function cronOfSpec(spec: ScheduleSpecDescription | undefined): string | undefined {
  const comment = spec?.calendars?.[0]?.comment;
  return comment?.startsWith(MARK) ? comment.slice(MARK.length) : undefined;
}
