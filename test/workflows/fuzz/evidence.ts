// What the checkers judge a trace against, gathered after the schedule: every link's history of the
// run and of its sub-agents' runs, their final status, the audit log lines, the canary markers, the
// model requests, and whether each history replays against the workflow code.
import type { Client } from '@temporalio/client';
import { defineQuery } from '@temporalio/workflow';
import { temporal } from '@temporalio/proto';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { statusQuery } from '../../../src/contract/agent-run-api';
import type { RunStatus } from '../../../src/contract/run-status';
import type { AuditRecord } from '../../../src/runtime/audit/audit-record';
import { lifecycleSinks } from '../../../src/runtime/lifecycle/lifecycle-sink';
import type { FakeRequest } from '../../../src/testing/scripted-model';
import { readAuditDir, type Marker } from './canaries';
import type { FuzzWorld } from './world';

type History = temporal.api.history.v1.IHistory;

/** By name, as `agentctl resume` reads it: the state is internal, so only its text is searched. */
const checkpointQuery = defineQuery<unknown>('checkpoint');

export interface RunEvidence {
  workflowId: string;
  links: { runId: string; history: History }[];
  /** The status query of the latest link once the run closed (a worker replays it). */
  status?: RunStatus;
  statusError?: string;
  /** The run's whole state as JSON (the `checkpoint` query `agentctl resume` reads), to find what a message left in it. */
  checkpoint?: string;
  /** The failure a FAILED run ended with. */
  failure?: string;
  /** Workflow task failures the histories record, other than the ordinary ones (see BENIGN_TASK_FAILURES). */
  taskFailures: string[];
}

export interface Evidence {
  runs: RunEvidence[];
  audit: AuditRecord[];
  markers: Marker[];
  requests: FakeRequest[];
  replayErrors: { workflowId: string; runId: string; error: string }[];
}

/**
 * A task that failed because a signal or update came while its completion was on the way, or because
 * the worker went away: Temporal retries these, and they say nothing about the workflow's code.
 */
const BENIGN_TASK_FAILURES = new Set(['WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND', 'WORKFLOW_TASK_FAILED_CAUSE_RESET_STICKY_TASK_QUEUE', 'WORKFLOW_TASK_FAILED_CAUSE_FORCE_CLOSE_COMMAND']);

async function linksOf(client: Client, workflowId: string): Promise<{ runId: string; history: History }[]> {
  // describe() names the latest link and the first; the chain is followed forward from the first.
  const latest = await client.workflow.getHandle(workflowId).describe();
  const links: { runId: string; history: History }[] = [];
  let runId: string | undefined = latest.raw.workflowExecutionInfo?.firstRunId || latest.runId;
  while (runId) {
    const history: History = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    links.push({ runId, history });
    runId = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return links;
}

function failureOf(history: History): string | undefined {
  const last = history.events?.at(-1)?.workflowExecutionFailedEventAttributes;
  return last ? `${last.failure?.message ?? 'failed'}${last.failure?.applicationFailureInfo?.type ? ` (${last.failure.applicationFailureInfo.type})` : ''}` : undefined;
}

function taskFailuresOf(history: History): string[] {
  const causes = temporal.api.enums.v1.WorkflowTaskFailedCause;
  return (history.events ?? []).flatMap((event) => {
    const failed = event.workflowTaskFailedEventAttributes;
    if (!failed) return [];
    const cause = causes[failed.cause ?? 0] ?? String(failed.cause);
    return BENIGN_TASK_FAILURES.has(cause) ? [] : [`${cause}: ${failed.failure?.message ?? ''}`.slice(0, 600)];
  });
}

function childrenOf(links: { history: History }[]): string[] {
  return links.flatMap((l) => (l.history.events ?? []).flatMap((e) => (e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ? [e.startChildWorkflowExecutionInitiatedEventAttributes.workflowId] : [])));
}

async function runEvidence(client: Client, workflowId: string): Promise<RunEvidence> {
  const links = await linksOf(client, workflowId);
  const evidence: RunEvidence = { workflowId, links, taskFailures: links.flatMap((l) => taskFailuresOf(l.history)) };
  const failure = failureOf(links.at(-1)!.history);
  if (failure) evidence.failure = failure;
  const handle = client.workflow.getHandle(workflowId);
  try {
    evidence.status = await client.withDeadline(Date.now() + 15_000, () => handle.query(statusQuery));
    evidence.checkpoint = JSON.stringify(await client.withDeadline(Date.now() + 15_000, () => handle.query(checkpointQuery)));
  } catch (error) {
    evidence.statusError = error instanceof Error ? error.message : String(error);
  }
  return evidence;
}

/** Gathers the evidence of one schedule's run tree; `client` must reach a worker on the run's task queue (for the status queries). */
export async function collectEvidence(world: FuzzWorld, client: Client, rootWorkflowId: string, scriptPrefix: string): Promise<Evidence> {
  const runs: RunEvidence[] = [];
  const queue = [rootWorkflowId];
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (runs.some((r) => r.workflowId === id)) continue;
    const run = await runEvidence(client, id).catch((error: unknown) => ({ workflowId: id, links: [], taskFailures: [], statusError: `no history: ${String(error)}` }) as RunEvidence);
    runs.push(run);
    queue.push(...childrenOf(run.links));
  }
  const ids = new Set(runs.map((r) => r.workflowId));
  const audit = (await readAuditDir(world.auditDir)).filter((r) => ids.has(r.run));
  const replayErrors = await replay(world.workflowBundle, runs);
  const requests = world.fake.requests.filter((r) => r.match?.startsWith(scriptPrefix));
  return { runs, audit, markers: world.ledger.markersOf(ids), requests, replayErrors };
}

/** Replays every link of every run against the workflow code the worker ran. */
async function replay(workflowBundle: WorkflowBundle, runs: RunEvidence[]): Promise<Evidence['replayErrors']> {
  const histories = runs.flatMap((r) => r.links.map((l) => ({ workflowId: r.workflowId, history: l.history })));
  const errors: Evidence['replayErrors'] = [];
  if (histories.length === 0) return errors;
  for await (const result of Worker.runReplayHistories({ workflowBundle, sinks: lifecycleSinks([]) }, histories)) {
    if (result.error) errors.push({ workflowId: result.workflowId, runId: result.runId, error: `${result.error.name}: ${result.error.message}`.slice(0, 800) });
  }
  return errors;
}
