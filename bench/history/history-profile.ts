// Turns fetched histories into the figures the history benchmark prints.
import { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

export const eventBytes = (event: HistoryEvent) => temporal.api.history.v1.HistoryEvent.encode(event).finish().length;

/**
 * Bytes written per iteration, in order: an iteration runs from one model activity being scheduled
 * to the next, so everything between (tool calls, workflow tasks, a compaction) is charged to it.
 */
export function bytesPerIteration(events: readonly HistoryEvent[], modelActivity: string): number[] {
  const perIteration: number[] = [];
  let current = 0;
  let started = false;
  for (const event of events) {
    if (event.activityTaskScheduledEventAttributes?.activityType?.name === modelActivity) {
      if (started) perIteration.push(current);
      started = true;
      current = 0;
    }
    current += eventBytes(event);
  }
  if (started) perIteration.push(current);
  return perIteration;
}

/** Mean bytes per iteration in consecutive windows of `size` iterations: flat means linear total history. */
export function windows(perIteration: readonly number[], size: number): { from: number; to: number; mean: number }[] {
  const out: { from: number; to: number; mean: number }[] = [];
  for (let from = 0; from < perIteration.length; from += size) {
    const slice = perIteration.slice(from, from + size);
    out.push({ from: from + 1, to: from + slice.length, mean: slice.reduce((a, b) => a + b, 0) / slice.length });
  }
  return out;
}

export function largestEvent(events: readonly HistoryEvent[]): number {
  return events.reduce((max, e) => Math.max(max, eventBytes(e)), 0);
}
