// The links of one run, oldest first: a run that continued as new has one history per link, and a
// proof must read every one of them (a decision made in one link may allow a call of the next).
import { temporal } from '@temporalio/proto';
import { AuditProofInputError } from '../../../contract/errors';
import type { SourcedHistory } from './read-histories';

export type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
export const EventType = temporal.api.enums.v1.EventType;

/** How a link ended, from its last event; `open` while it runs (or when the export stopped early). */
export type LinkEnd = 'completed' | 'failed' | 'canceled' | 'terminated' | 'timed_out' | 'continued_as_new' | 'open';

export interface HistoryLink {
  /** 0 for the first link of the chain. */
  index: number;
  /** This link's run id (the one its audit lines carry as `runId`). */
  runId: string;
  /** The first link's run id: what a signature names the run by. */
  firstRunId: string;
  source: string;
  events: HistoryEvent[];
  end: LinkEnd;
  startedAt: number;
  /** When the link closed; undefined while it runs. */
  closedAt?: number;
}

const ENDS: [number, LinkEnd][] = [
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, 'completed'],
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED, 'failed'],
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED, 'canceled'],
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED, 'terminated'],
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT, 'timed_out'],
  [EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW, 'continued_as_new'],
];

/** An event's time in ms, floored as workflow code's clock is (seconds arrive as a number or a Long, depending on the reader). */
export const eventTime = (event: HistoryEvent): number => Number(event.eventTime?.seconds ?? 0) * 1000 + Math.floor((event.eventTime?.nanos ?? 0) / 1e6);
export const eventId = (event: HistoryEvent): number => Number(event.eventId ?? 0);

interface Unordered extends Omit<HistoryLink, 'index'> {
  continuedFrom?: string;
}

function linkOf(workflowId: string, { source, history }: SourcedHistory): Unordered {
  const events = history.events ?? [];
  const started = events[0]?.workflowExecutionStartedEventAttributes;
  if (!started) throw new AuditProofInputError(`${source} does not start with WorkflowExecutionStarted: export the whole history, not a part of it.`);
  if (started.workflowId && started.workflowId !== workflowId) {
    throw new AuditProofInputError(`${source} is the history of workflow ${started.workflowId}, not of ${workflowId}: name the run's own history (or the right workflow id).`);
  }
  const type = started.workflowType?.name;
  if (type !== 'agentRun') throw new AuditProofInputError(`${source} is the history of a ${type ?? 'nameless'} workflow, not of an agent run (agentRun).`);
  const runId = started.originalExecutionRunId;
  if (!runId) throw new AuditProofInputError(`${source} does not say its run id (originalExecutionRunId): export it with a Temporal CLI of version 1.0 or later.`);
  const last = events[events.length - 1]!;
  const end = ENDS.find(([type]) => type === last.eventType)?.[1] ?? 'open';
  return {
    runId,
    firstRunId: started.firstExecutionRunId || runId,
    continuedFrom: started.continuedExecutionRunId || undefined,
    source,
    events,
    end,
    startedAt: eventTime(events[0]!),
    closedAt: end === 'open' ? undefined : eventTime(last),
  };
}

/**
 * The chain of `workflowId`'s run, oldest link first. Refuses histories of another workflow, of
 * another run under the same id, and a chain with a link missing, naming the run id to export.
 */
export function orderChain(workflowId: string, histories: readonly SourcedHistory[]): HistoryLink[] {
  if (histories.length === 0) throw new AuditProofInputError(`No history of ${workflowId} was given.`);
  const byRun = new Map<string, Unordered>();
  for (const link of histories.map((h) => linkOf(workflowId, h))) {
    // The same link exported twice: the longer export is the later, fuller one.
    const known = byRun.get(link.runId);
    if (!known || known.events.length < link.events.length) byRun.set(link.runId, link);
  }
  const links = [...byRun.values()];
  const firstRunId = links[0]!.firstRunId;
  const stranger = links.find((l) => l.firstRunId !== firstRunId);
  if (stranger) {
    throw new AuditProofInputError(
      `${stranger.source} belongs to another run of ${workflowId} (its first run is ${stranger.firstRunId}, not ${firstRunId}): the workflow id was reused; give the links of one run only.`,
    );
  }
  const after = new Map(links.filter((l) => l.continuedFrom).map((l) => [l.continuedFrom!, l]));
  let current = byRun.get(firstRunId);
  if (!current) throw new AuditProofInputError(`The first link of ${workflowId} (run ${firstRunId}) is missing: ${exportHint(workflowId, firstRunId)}.`);
  const chain: HistoryLink[] = [];
  while (current) {
    const { continuedFrom: _from, ...link } = current;
    chain.push({ ...link, index: chain.length });
    const next = after.get(current.runId);
    if (!next && current.end === 'continued_as_new') {
      const nextRun = current.events[current.events.length - 1]?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? '<next run id>';
      throw new AuditProofInputError(`Run ${current.runId} of ${workflowId} continued as new, but the next link (run ${nextRun}) is missing: ${exportHint(workflowId, nextRun)}.`);
    }
    current = next;
  }
  const loose = links.find((l) => !chain.some((c) => c.runId === l.runId));
  if (loose) throw new AuditProofInputError(`${loose.source} (run ${loose.runId}) does not continue any link of the chain that starts at run ${firstRunId}.`);
  return chain;
}

const exportHint = (workflowId: string, runId: string) => `temporal workflow show --workflow-id ${workflowId} --run-id ${runId} --output json`;
