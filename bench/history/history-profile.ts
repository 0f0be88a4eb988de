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

/**
 * Temporal Cloud billable actions, estimated from a history the way the Cloud UI's "Billable Actions"
 * column does (docs.temporal.io/cloud/actions): a workflow start (client, continue-as-new or child),
 * each activity attempt, all local activities of one workflow task together, each timer, search
 * attribute upsert, signal, update, child start and external signal, and side-effect markers. Not in a
 * history, so not counted: queries and activity heartbeats (the model activity heartbeats while it
 * streams, at most every 500 ms). Patch (version) markers are not counted.
 */
export function billableActions(events: readonly HistoryEvent[]): { total: number; byKind: Record<string, number> } {
  const byKind: Record<string, number> = {};
  const add = (kind: string, n = 1) => void (byKind[kind] = (byKind[kind] ?? 0) + n);
  let localInTask = false;
  for (const event of events) {
    if (event.workflowExecutionStartedEventAttributes) add('workflow start');
    else if (event.activityTaskScheduledEventAttributes) add('activity');
    else if (event.activityTaskStartedEventAttributes) add('activity retry', Math.max(0, (event.activityTaskStartedEventAttributes.attempt ?? 1) - 1));
    else if (event.timerStartedEventAttributes) add('timer');
    else if (event.upsertWorkflowSearchAttributesEventAttributes) add('search attribute upsert');
    else if (event.workflowExecutionSignaledEventAttributes) add('signal');
    else if (event.workflowExecutionUpdateAcceptedEventAttributes) add('update');
    else if (event.startChildWorkflowExecutionInitiatedEventAttributes) add('child start');
    else if (event.signalExternalWorkflowExecutionInitiatedEventAttributes) add('external signal');
    else if (event.workflowTaskCompletedEventAttributes) localInTask = false;
    else if (event.markerRecordedEventAttributes) {
      const name = event.markerRecordedEventAttributes.markerName ?? '';
      if (name === 'core_local_activity') {
        if (!localInTask) add('local activities (per workflow task)');
        localInTask = true;
      } else if (name !== 'core_patch') add(`marker ${name}`);
    }
  }
  return { total: Object.values(byKind).reduce((a, b) => a + b, 0), byKind };
}
