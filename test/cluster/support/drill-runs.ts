// The runs of the cluster drill, and what their histories and the workspace say afterwards: which
// host ran each activity, which activities had to run again, whether a model call missed its
// conversation, and how many times each tool call's side effect happened.
//
// Every tool call of the drill is a `shell` command that appends one line, its marker, to a canary
// file in the shared workspace: a side effect that must happen exactly once. `shell` is a tool that
// must not run twice, so it runs as an activity with one attempt (activity-stubs.ts `onceTools`):
// a line missing or written twice is a call lost or doubled.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import type { ApprovalRule } from '../../../src/contract/approval-rules';
import { FailureType } from '../../../src/contract/errors';
import { reply, toolCall, type FakeAnthropic } from '../../support/fake-anthropic';
import { toolResultsIn } from '../../support/agent-run-harness';

export type DrillKind = 'steps' | 'approval';

export interface DrillRun {
  kind: DrillKind;
  /** Unique, and no run's task is a substring of another's (the fake picks scripts by substring). */
  task: string;
  /** The canary file in the workspace, one line per tool call that ran. */
  canary: string;
  /** The marker each tool call appends, in order. */
  markers: string[];
  handle?: WorkflowHandle;
  /** Steps runs pre-approve their `echo` (with writes); approval runs park on their one call until a person decides. */
  alwaysApproved?: ApprovalRule[];
}

/**
 * The steps runs' rule: `echo` with any words may run unasked, and may write (a rule without `writes` runs the
 * command with the workspace read-only, and the append would fail).
 */
const ECHO_MAY_WRITE: ApprovalRule = { tool: 'shell', command: 'echo *', writes: true };

/** How long the fake model "thinks" per reply: long enough that a host always has calls in flight. */
const THINK_MS = 400;
export const STEPS = 6;

/**
 * Scripts the fake model for one run. A steps run makes STEPS canary calls, one model call each, then
 * completes. An approval run makes one canary call, which parks until approved, then completes.
 */
export function scriptDrillRun(fake: FakeAnthropic, kind: DrillKind, n: number, suffix: string): DrillRun {
  const task = `cluster drill ${kind} run ${n} [${suffix}]`;
  const canary = `canary-${suffix}-${kind}-${n}.log`;
  const markers = Array.from({ length: kind === 'steps' ? STEPS : 1 }, (_, step) => `${kind}-${n}-call-${step + 1}`);
  const calls = markers.map((marker) => reply(toolCall('shell', { command: `echo ${marker} >> ${canary}` })).delay(THINK_MS));
  const complete = reply(toolCall('complete_task', { summary: `${kind} run ${n} done`, status: 'success' })).delay(THINK_MS);
  fake.script(task, [...calls, complete]);
  return { kind, task, canary, markers, ...(kind === 'steps' ? { alwaysApproved: [ECHO_MAY_WRITE] } : {}) };
}

export interface CanaryCount {
  marker: string;
  /** Lines with this marker in the canary file: how many times the command ran. */
  ran: number;
  /** What the model was told: the call's result was an error (its outcome unknown, for a lost worker or report). */
  reportedError: boolean;
  /** The start of that error result, to tell an unknown outcome from a command that failed. */
  errorText?: string;
}

/** How many times each tool call of `run` ran (its canary lines), beside what the model was told. */
export async function canaryCounts(run: DrillRun, workspace: string, fake: FakeAnthropic): Promise<CanaryCount[]> {
  const lines = (await readFile(path.join(workspace, run.canary), 'utf8').catch(() => '')).split('\n').filter(Boolean);
  const requests = fake.requestsFor(run.task);
  return run.markers.map((marker, i) => {
    // The request after call i carries its result (a retried model call repeats it: any of them will do).
    const results = requests.filter((r) => r.index === i + 1).flatMap((r) => toolResultsIn(r));
    const error = results.find((r) => r.is_error === true);
    return { marker, ran: lines.filter((line) => line === marker).length, reportedError: error !== undefined, ...(error ? { errorText: contentText(error.content).slice(0, 300) } : {}) };
  });
}

/** A tool result's content as text (a string, or text blocks). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((block: { text?: string }) => block.text ?? '').join('') : JSON.stringify(content);
}

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** What one run's history tells about the drill. */
export interface RunEvidence {
  /** Hosts (the part of the worker identity after `@`) that started an activity of this run. */
  activityHosts: Set<string>;
  /** Model calls that failed because the worker lacked the conversation. */
  storeMisses: number;
  /** Activity starts that were not the first attempt: work that had to run again. */
  retriedActivities: { type: string; attempt: number; host: string }[];
  /** Activities that timed out (a lost worker, or a result the server never recorded). */
  activityTimeouts: number;
  /** Workflow tasks that timed out or failed, and ran again. */
  workflowTaskRetries: number;
  /** The host that ran each tool call (by its call id). */
  toolHosts: Map<string, string>;
}

const hostOf = (identity: string | null | undefined) => identity?.split('@').pop() ?? '?';

function callIdOf(scheduled: temporal.api.history.v1.IActivityTaskScheduledEventAttributes | null | undefined): string | undefined {
  const text = scheduled?.input?.payloads?.map((p) => Buffer.from(p.data ?? []).toString()).join('') ?? '';
  return /"callId":"([^"]+)"/.exec(text)?.[1];
}

export async function evidenceOf(handle: WorkflowHandle): Promise<RunEvidence> {
  const events: HistoryEvent[] = (await handle.fetchHistory()).events ?? [];
  const byId = new Map(events.map((event) => [String(event.eventId), event]));
  const evidence: RunEvidence = { activityHosts: new Set(), storeMisses: 0, retriedActivities: [], activityTimeouts: 0, workflowTaskRetries: 0, toolHosts: new Map() };
  for (const event of events) {
    const started = event.activityTaskStartedEventAttributes;
    if (started) {
      const scheduled = byId.get(String(started.scheduledEventId))?.activityTaskScheduledEventAttributes;
      const type = scheduled?.activityType?.name ?? '?';
      const host = hostOf(started.identity);
      evidence.activityHosts.add(host);
      if ((started.attempt ?? 1) > 1) evidence.retriedActivities.push({ type, attempt: started.attempt ?? 1, host });
      const callId = type === 'runTool' ? callIdOf(scheduled) : undefined;
      if (callId) evidence.toolHosts.set(callId, host);
    }
    if (event.activityTaskFailedEventAttributes?.failure?.applicationFailureInfo?.type === FailureType.ConversationStoreMiss) evidence.storeMisses += 1;
    if (event.activityTaskTimedOutEventAttributes) evidence.activityTimeouts += 1;
    if (event.workflowTaskTimedOutEventAttributes || event.workflowTaskFailedEventAttributes) evidence.workflowTaskRetries += 1;
  }
  return evidence;
}
