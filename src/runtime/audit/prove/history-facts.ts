// What a proof needs from a run's histories, read once: the tool calls that ran (as activities, or
// as local activities), the audit log's local activities and the lines each wrote, the decisions
// people sent, what the model asked for, and the facts of the run (approvers, keys, tool scopes).
import type { LoadedDataConverter } from '@temporalio/common';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import type { temporal } from '@temporalio/proto';
import { AuditProofInputError } from '../../../contract/errors';
import { AuditReceiptSchema } from '../audit-record';
import { EventType, eventId, eventTime, type HistoryEvent, type HistoryLink } from './history-chain';

/** A place in the chain: a link, and an event of it. Places compare link first. */
export interface Place {
  link: number;
  event: number;
}

export const before = (a: Place, b: Place): boolean => a.link < b.link || (a.link === b.link && a.event < b.event);
export const placeText = (p: Place, links: readonly HistoryLink[]) => (links.length > 1 ? `link ${p.link + 1} event ${p.event}` : `event ${p.event}`);

export type RunOutcome = 'completed' | 'failed' | 'timed_out' | 'canceled' | 'running';

/** One execution of the `runTool` activity. A local one's marker names no call, tool or arguments. */
export interface ToolRun {
  how: 'activity' | 'local';
  callId?: string;
  tool?: string;
  input?: unknown;
  approval?: { decision?: string; approver?: string; via?: string };
  permission?: { by?: string; writes?: boolean };
  /** The scheduled event (or the marker). */
  at: Place;
  /** The workflow task completion that scheduled it (or recorded its marker): when the server could start it. */
  completion: Place;
  outcome: RunOutcome;
}

/**
 * A completed `recordAudit` (a local activity's marker, or an activity task's completion since patch
 * `audit-after-commit`): the hashes of the lines it wrote (absent before receipts).
 */
export interface AuditMarker {
  at: Place;
  completion: Place;
  receipt?: string[];
}

/** A decision a person sent, as the history holds it (the `approval` signal, or an accepted update). */
export interface DecisionMessage {
  at: Place;
  time: number;
  via: 'signal' | 'update';
  payload: Record<string, unknown>;
  /** An update's handler failed (an edit its tool refused): the workflow applied nothing. Signals: false. */
  failed: boolean;
  updateId?: string;
}

export interface RunFacts {
  links: HistoryLink[];
  runApprovers?: string[];
  agentApprovers?: string[];
  /** Each tool's scope, from the agents the run resolved (the most permissive when they differ). */
  scopes: Map<string, string>;
  /** The approver registry the worker ran with, when it had one. */
  approverKeys?: Record<string, string>;
  /** What the model asked for, by call id (before any edit). */
  modelCalls: Map<string, { name: string; input: unknown }>;
  toolRuns: ToolRun[];
  auditMarkers: AuditMarker[];
  messages: DecisionMessage[];
  /** Per link, the start time (ms) of each workflow task and its event: workflow code's clock. */
  taskStarts: Map<number, number>[];
  /** Per link index, the patches its execution recorded (what its workflow code promised to do). */
  patches: Map<number, Set<string>>;
}

type Payloads = temporal.api.common.v1.IPayloads | null | undefined;
type Json = Record<string, unknown>;
const record = (value: unknown): Json | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);

/** Reads the facts of every link, decoding payloads with `converter` (its codec, if the run's payloads are sealed). */
export async function readRunFacts(links: HistoryLink[], converter: LoadedDataConverter): Promise<RunFacts> {
  const facts: RunFacts = { links, scopes: new Map(), modelCalls: new Map(), toolRuns: [], auditMarkers: [], messages: [], taskStarts: [], patches: new Map() };
  for (const link of links) await readLink(facts, link, converter);
  return facts;
}

function noteAgent(facts: RunFacts, agent: Json | undefined): void {
  if (!agent) return;
  for (const [name, tool] of Object.entries(record(agent.tools) ?? {})) {
    const scope = String(record(tool)?.scope ?? 'unknown');
    if (facts.scopes.get(name) === undefined || facts.scopes.get(name) === 'read') facts.scopes.set(name, scope);
  }
  if (Array.isArray(agent.approvers)) facts.agentApprovers = agent.approvers.map(String);
  noteKeys(facts, agent.approverKeys);
}

function noteKeys(facts: RunFacts, keys: unknown): void {
  const found = record(keys);
  if (found) facts.approverKeys = Object.fromEntries(Object.entries(found).map(([name, key]) => [name, String(key)]));
}

function noteModelCall(facts: RunFacts, id: unknown, name: unknown, input: unknown): void {
  if (typeof id === 'string' && !facts.modelCalls.has(id)) facts.modelCalls.set(id, { name: String(name), input });
}

async function readLink(facts: RunFacts, link: HistoryLink, converter: LoadedDataConverter): Promise<void> {
  const decode = async (payloads: Payloads, event: HistoryEvent): Promise<unknown[]> => {
    try {
      return await decodeArrayFromPayloads(converter, payloads?.payloads);
    } catch (error) {
      throw new AuditProofInputError(
        `Event ${eventId(event)} of run ${link.runId} (${link.source}) could not be decoded (${(error as Error).message}): a run with sealed payloads needs its key (AGENT_ENCRYPTION_KEY, AGENT_ENCRYPTION_OLD_KEYS).`,
      );
    }
  };
  const starts = new Map<number, number>();
  facts.taskStarts[link.index] = starts;
  const scheduled = new Map<number, { type: string; run?: ToolRun }>();
  const place = (event: number): Place => ({ link: link.index, event });
  for (const event of link.events) {
    const id = eventId(event);
    switch (event.eventType) {
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED: {
        const input = record((await decode(event.workflowExecutionStartedEventAttributes?.input, event))[0]) ?? {};
        if (link.index === 0 && Array.isArray(input.approvers)) facts.runApprovers = input.approvers.map(String);
        const checkpoint = record(input.checkpoint);
        noteAgent(facts, record(checkpoint?.agent));
        noteKeys(facts, checkpoint?.approverKeys);
        for (const call of (record(checkpoint?.turn)?.calls as unknown[] | undefined) ?? []) {
          const c = record(call);
          noteModelCall(facts, c?.id, c?.name, record(c?.edited)?.original ?? c?.input);
        }
        break;
      }
      case EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED:
        if (!starts.has(eventTime(event))) starts.set(eventTime(event), id);
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED: {
        const attrs = event.activityTaskScheduledEventAttributes!;
        const type = attrs.activityType?.name ?? '';
        if (type !== 'runTool') {
          scheduled.set(id, { type });
          break;
        }
        const input = record((await decode(attrs.input, event))[0]) ?? {};
        const run: ToolRun = {
          how: 'activity',
          callId: typeof input.callId === 'string' ? input.callId : undefined,
          tool: typeof input.tool === 'string' ? input.tool : undefined,
          input: input.input,
          approval: record(input.approval),
          permission: record(input.permission),
          at: place(id),
          completion: place(Number(attrs.workflowTaskCompletedEventId ?? 0)),
          outcome: 'running',
        };
        facts.toolRuns.push(run);
        scheduled.set(id, { type, run });
        break;
      }
      case EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED: {
        const attrs = event.activityTaskCompletedEventAttributes!;
        const what = scheduled.get(Number(attrs.scheduledEventId));
        if (what?.run) what.run.outcome = 'completed';
        if (what?.type === 'recordAudit') {
          // Patch audit-after-commit: the lines were on disk when this event was written, so a call
          // scheduled by a later workflow task completion could start only after them.
          const receipt = AuditReceiptSchema.safeParse((await decode(attrs.result, event))[0]);
          facts.auditMarkers.push({ at: place(id), completion: place(id), receipt: receipt.success ? receipt.data.lines : undefined });
        }
        if (what?.type === 'callModel' || what?.type === 'resolveAgent' || what?.type === 'loadPreferences') {
          const result = record((await decode(attrs.result, event))[0]);
          if (what.type === 'resolveAgent') noteAgent(facts, result);
          if (what.type === 'loadPreferences') noteKeys(facts, result?.approverKeys);
          for (const block of (record(result?.message)?.content as unknown[] | undefined) ?? []) {
            const b = record(block);
            if (b?.type === 'tool_use') noteModelCall(facts, b.id, b.name, b.input);
          }
        }
        break;
      }
      case EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED:
      case EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
      case EventType.EVENT_TYPE_ACTIVITY_TASK_CANCELED: {
        const attrs = event.activityTaskFailedEventAttributes ?? event.activityTaskTimedOutEventAttributes ?? event.activityTaskCanceledEventAttributes;
        const run = scheduled.get(Number(attrs?.scheduledEventId))?.run;
        if (run) run.outcome = event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED ? 'failed' : event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT ? 'timed_out' : 'canceled';
        break;
      }
      case EventType.EVENT_TYPE_MARKER_RECORDED: {
        const attrs = event.markerRecordedEventAttributes!;
        if (attrs.markerName === 'core_patch') {
          const patch = record((await decode(attrs.details?.['patch-data'], event))[0]);
          if (typeof patch?.id === 'string') facts.patches.set(link.index, (facts.patches.get(link.index) ?? new Set()).add(patch.id));
          break;
        }
        if (attrs.markerName !== 'core_local_activity' || attrs.failure) break;
        const data = record((await decode(attrs.details?.data, event))[0]);
        const completion = place(Number(attrs.workflowTaskCompletedEventId ?? 0));
        if (data?.activity_type === 'runTool') facts.toolRuns.push({ how: 'local', at: place(id), completion, outcome: 'completed' });
        if (data?.activity_type !== 'recordAudit') break;
        const receipt = AuditReceiptSchema.safeParse((await decode(attrs.details?.result, event))[0]);
        facts.auditMarkers.push({ at: place(id), completion, receipt: receipt.success ? receipt.data.lines : undefined });
        break;
      }
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED: {
        const request = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input;
        if (request?.name !== 'decideApproval' && request?.name !== 'decideApprovals') break;
        const arg = record((await decode(request.args, event))[0]);
        const decisions = request.name === 'decideApprovals' ? ((arg?.decisions as unknown[] | undefined) ?? []) : [arg];
        const updateId = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.meta?.updateId ?? undefined;
        for (const payload of decisions.map(record)) if (payload) facts.messages.push({ at: place(id), time: eventTime(event), via: 'update', payload, failed: false, updateId });
        break;
      }
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED: {
        const attrs = event.workflowExecutionUpdateCompletedEventAttributes;
        if (!attrs?.outcome?.failure) break;
        for (const message of facts.messages) if (message.updateId && message.updateId === attrs.meta?.updateId) message.failed = true;
        break;
      }
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED: {
        const attrs = event.workflowExecutionSignaledEventAttributes!;
        if (attrs.signalName !== 'approval') break;
        const payload = record((await decode(attrs.input, event))[0]);
        if (payload) facts.messages.push({ at: place(id), time: eventTime(event), via: 'signal', payload, failed: false });
        break;
      }
    }
  }
}
