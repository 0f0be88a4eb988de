// The runs of the host-failure drill and what their histories say: which host ran each activity,
// whether any model call missed its conversation, which activities had to be retried elsewhere.
import type { WorkflowHandle } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { FailureType } from '../../../src/contract/errors';
import { reply, toolCall, type FakeAnthropic } from '../../support/fake-anthropic';

export type DrillKind = 'steps' | 'approval';

export interface DrillRun {
  kind: DrillKind;
  /** Unique, and no run's task is a substring of another's (the fake picks scripts by substring). */
  task: string;
  handle?: WorkflowHandle;
  /** Written by the approved write_file call of an approval run. */
  file?: string;
  /** Approval runs pre-approve `shell`, so their second step runs the sandbox on a surviving host. */
  alwaysApproved?: string[];
}

/** How long the fake model "thinks" per reply: long enough that a host always has calls in flight. */
const THINK_MS = 400;
const STEPS = 6;

/**
 * Scripts the fake model for one run. A steps run reads the workspace STEPS times, one model call
 * each, then completes. An approval run first asks to write a file (and parks until approved), then
 * reads it back with `shell`, sandboxed by bwrap inside the host's network namespace, and completes.
 */
export function scriptDrillRun(fake: FakeAnthropic, kind: DrillKind, n: number, suffix: string): DrillRun {
  const task = `cluster drill ${kind} run ${n} [${suffix}]`;
  const complete = reply(toolCall('complete_task', { summary: `${kind} run ${n} done`, status: 'success' })).delay(THINK_MS);
  if (kind === 'steps') {
    const steps = Array.from({ length: STEPS }, () => reply(toolCall('list_files', { path: '.' })).delay(THINK_MS));
    fake.script(task, [...steps, complete]);
    return { kind, task };
  }
  const file = `approved-${n}-${suffix}.txt`;
  fake.script(task, [
    reply(toolCall('write_file', { path: file, content: `approved while a host was down (run ${n})` })).delay(THINK_MS),
    reply(toolCall('shell', { command: `cat ${file}` })).delay(THINK_MS),
    complete,
  ]);
  return { kind, task, file, alwaysApproved: ['shell'] };
}

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** What one run's history tells about the drill. */
export interface RunEvidence {
  /** Hosts (the part of the worker identity after `@`) that started an activity of this run. */
  activityHosts: Set<string>;
  /** Model calls that failed because the worker lacked the conversation. */
  storeMisses: number;
  /** Activity starts that were not the first attempt: work taken over after a host died. */
  retriedActivities: { type: string; attempt: number; host: string }[];
  /** The host that ran the approved write_file (approval runs). */
  writeHost?: string;
}

const hostOf = (identity: string | null | undefined) => identity?.split('@').pop() ?? '?';

export async function evidenceOf(handle: WorkflowHandle): Promise<RunEvidence> {
  const events: HistoryEvent[] = (await handle.fetchHistory()).events ?? [];
  const byId = new Map(events.map((event) => [String(event.eventId), event]));
  const evidence: RunEvidence = { activityHosts: new Set(), storeMisses: 0, retriedActivities: [] };
  for (const event of events) {
    const started = event.activityTaskStartedEventAttributes;
    if (started) {
      const scheduled = byId.get(String(started.scheduledEventId))?.activityTaskScheduledEventAttributes;
      const type = scheduled?.activityType?.name ?? '?';
      const host = hostOf(started.identity);
      evidence.activityHosts.add(host);
      if ((started.attempt ?? 1) > 1) evidence.retriedActivities.push({ type, attempt: started.attempt ?? 1, host });
      if (type === 'runTool' && scheduled?.input?.payloads?.some((p) => Buffer.from(p.data ?? []).toString().includes('"write_file"'))) evidence.writeHost = host;
    }
    if (event.activityTaskFailedEventAttributes?.failure?.applicationFailureInfo?.type === FailureType.ConversationStoreMiss) evidence.storeMisses += 1;
  }
  return evidence;
}
