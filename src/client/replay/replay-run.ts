import type { Client, WorkflowHandle } from '@temporalio/client';
import type { AgentRunInput } from '../../contract/run-input';
import { userMessageSignal } from '../../contract/agent-run-api';
import type { PendingApproval } from '../../contract/run-status';
import type { ModelPrices } from '../../runtime/model/model-prices';
import { modelIdFor } from '../../runtime/model/model-request';
import { queryStatus } from '../approval-helpers';
import { awaitOutcome, type RunOutcome } from '../run-outcome';
import { startRun } from '../start-run';
import type { RecordedRun } from './recorded-run';
import { assertPriced, costOf, recordedUsage } from './replay-cost';
import { StoredBodiesMissingError } from './replay-errors';
import { callsWithAttachments, type StoredBodies } from './stored-bodies';
import { attachmentKey } from '../../runtime/conversation/tool-attachments';
import { recordedCompletion, sameCompletion, shadowCompletion, type ReplayReport } from './replay-report';
import { answerShadowQuestion, decideShadowCall, recordedApprovals, recordedDecisionPayloads, type ApprovalView } from './shadow-decisions';
import { continueIdleThread, steeringPlan } from './shadow-messages';
import { ShadowSession, type ShadowOptions } from './shadow-session';
import type { ShadowWorker } from './shadow-worker';
import { copyWorkspaceForShadow, removeShadowWorkspace } from './shadow-workspace';

export interface ReplayOptions extends ShadowOptions {
  /** Model prices for the report's cost; `null` leaves the cost out (`--no-cost`). */
  prices: ModelPrices | null;
  /** The original worker's workspace root, copied (read-only) for read calls that match no recorded one. */
  sourceWorkspace?: string;
  /** How often the driver reads the shadow's status for approvals and questions. */
  pollMs?: number;
  /** Where what the history lacks is looked up (a reachable conversation store, an export's bodies). */
  bodies?: StoredBodies;
}

/** A shadow's workflow id: its own namespace of ids, so nothing of the original's can be addressed by it. */
export function shadowIdOf(workflowId: string): string {
  return `shadow-${workflowId}-${Math.random().toString(36).slice(2, 6)}`;
}

/** The shadow's input: the recorded run's, with the replay's model and effort; no approvers (the driver decides), no parent. */
export function shadowInput(input: AgentRunInput, options: ShadowOptions): AgentRunInput {
  const { approvers: _approvers, parent: _parent, copyWorkspaceOf: _copy, ...rest } = input as AgentRunInput & { parent?: unknown; copyWorkspaceOf?: string };
  return { ...rest, ...(options.model ? { model: options.model } : {}), ...(options.effort ? { effort: options.effort } : {}) };
}

/** Refuses a replay that could not be honest, before anything starts: missing stored parts, unpriced models. */
export function preflight(recorded: RecordedRun, worker: Pick<ShadowWorker, 'registry' | 'modelTiers'>, options: ReplayOptions): void {
  const where = options.bodies?.description ?? 'no conversation store (agentctl reaches a store only through AGENT_CONVERSATION_STORE=dir:... or postgres://...; a worker\'s memory store is its own)';
  const missing = recorded.modelCalls.filter((call) => call.missing);
  if (missing.length > 0) {
    const first = missing[0]!.missing!;
    throw new StoredBodiesMissingError(
      `Run ${recorded.workflowId} cannot be replayed: the prompt of its model request ${missing[0]!.index + 1} (iteration ${missing[0]!.iteration}) starts from ${first.baseCount} message(s) its history does not carry, kept in a conversation store under key ${first.key} (tag ${first.tag ?? 'none'}). They were looked for in ${where} and are gone (a closed run's stored conversation is deleted with it). ${missing.length} request(s) lack their stored part.`,
    );
  }
  if (!options.prices) return;
  assertPriced(recordedUsage(recorded).map((u) => u.model), options.prices, `the recorded run ${recorded.workflowId}'s`);
  if (options.liveModel) {
    const agent = worker.registry.agents.get(recorded.input.agent);
    if (agent) assertPriced([modelIdFor(agent, worker.modelTiers, options.model ?? recorded.input.model)], options.prices, 'the live model the shadow would ask');
  }
}

/**
 * The images and documents the recorded run's tools returned, kept where the shadow's model activity
 * looks for them: a live model must see what the recorded one saw. Only a live replay needs them (the
 * record's requests are compared by the lines that name them), and one that cannot have them refuses.
 */
async function giveAttachments(recorded: RecordedRun, worker: ShadowWorker, shadowId: string, bodies: StoredBodies | undefined): Promise<void> {
  const missing: string[] = [];
  for (const callId of callsWithAttachments(recorded)) {
    const stored = await bodies?.attachments(recorded.workflowId, callId);
    if (stored) await worker.conversations.save(attachmentKey(shadowId, callId), stored, shadowId);
    else missing.push(callId);
  }
  if (missing.length === 0) return;
  throw new StoredBodiesMissingError(
    `Run ${recorded.workflowId} cannot be replayed with --live-model: the images or documents its tool call(s) ${missing.join(', ')} returned are kept only in a conversation store (key attachments:${recorded.workflowId}:<call id>), and were looked for in ${bodies?.description ?? 'no conversation store'} and are gone (a closed run's are deleted with its conversation). Replay it without --live-model, or export it while the store still has them.`,
  );
}

/** Decides and answers what the shadow waits for, until it ends or the replay stops it. */
async function drive(handle: WorkflowHandle, session: ShadowSession, approvals: ApprovalView[], pollMs: number): Promise<RunOutcome> {
  const ended = awaitOutcome(handle);
  const stopped = session.whenStopped().then(async (reason) => {
    await handle.terminate(`replay lab: ${reason}`).catch(() => undefined);
  });
  const decided = new Set<string>();
  const followedUp = new Set<number>();
  let answered = 0;
  const decisions = recordedDecisionPayloads(session.recorded);
  for (;;) {
    const tick = new Promise<'tick'>((resolve) => setTimeout(() => resolve('tick'), pollMs));
    const next = await Promise.race([ended, stopped.then(() => 'stopped' as const), tick]);
    if (next === 'stopped') return ended;
    if (next !== 'tick') return next;
    // A run that has not answered its first workflow task yet has no handlers: asked again next tick.
    const status = await queryStatus(handle, 10_000).catch(() => undefined);
    if (!status) continue;
    const own = status.pendingApprovals.filter((p: PendingApproval) => p.workflowId === handle.workflowId && !decided.has(p.callId));
    for (const pending of own) {
      if (session.stopReason) break;
      decided.add(pending.callId);
      const view = await decideShadowCall(handle, session, pending, decisions);
      if (view) approvals.push(view);
    }
    for (const question of status.pendingQuestions.filter((q) => !decided.has(`question:${q.callId}`))) {
      if (session.stopReason) break;
      decided.add(`question:${question.callId}`);
      if (await answerShadowQuestion(handle, session, question, answered)) answered += 1;
    }
    if (!session.stopReason) await continueIdleThread(handle, session, status, followedUp);
  }
}

/**
 * Replays one recorded run in a shadow on `worker` and reports how it compares. The shadow is an
 * ordinary `agentRun` (its history is in the namespace, under its own id, for the Web UI) started
 * with the recorded input; the driver answers its approvals and questions from the record and stops
 * it (terminates its run) when the replay cannot go on. Nothing of the original's is written.
 */
export async function replayRecordedRunIn(client: Client, worker: ShadowWorker, recorded: RecordedRun, options: ReplayOptions): Promise<ReplayReport> {
  preflight(recorded, worker, options);
  const shadowId = shadowIdOf(recorded.workflowId);
  const mode = (recorded.activities.find((a) => a.activity === 'resolveAgent')?.result as { workspace?: 'shared' | 'per-run' } | undefined)?.workspace ?? 'shared';
  let copy: Promise<string> | undefined;
  const copyOnce = () => (copy ??= copyWorkspaceForShadow({ root: options.sourceWorkspace, mode, originalId: recorded.workflowId, shadowId }));
  const session = new ShadowSession(recorded, shadowId, { ...options, decide: options.decide ?? 'stop' }, copyOnce, steeringPlan(recorded).before);
  const approvals: ApprovalView[] = [];
  if (options.liveModel) await giveAttachments(recorded, worker, shadowId, options.bodies);
  worker.follow(session);
  let outcome: RunOutcome;
  try {
    const handle = await startRun(client, shadowInput(recorded.input, options), { taskQueue: worker.taskQueue, workflowId: shadowId, memo: { replayOf: recorded.workflowId } });
    // A message the recorded run's first request carried arrived before it: sent at once.
    for (const message of session.steering.get(0) ?? []) await handle.signal(userMessageSignal, message);
    outcome = await drive(handle, session, approvals, options.pollMs ?? 250);
  } finally {
    worker.unfollow(shadowId);
    if (copy) await removeShadowWorkspace(await copy).catch(() => undefined);
  }
  return buildReport(recorded, session, outcome, approvals, options);
}

function buildReport(recorded: RecordedRun, session: ShadowSession, outcome: RunOutcome, approvals: ApprovalView[], options: ReplayOptions): ReplayReport {
  const completion = { recorded: recordedCompletion(recorded), shadow: shadowCompletion(outcome, session) };
  if (!session.divergence && !sameCompletion(completion.recorded, completion.shadow)) {
    session.diverge({ iteration: completion.shadow.iterations ?? session.iteration, kind: 'completion', what: 'the shadow ended otherwise than the recorded run', recorded: completion.recorded, shadow: completion.shadow });
  }
  const notes: string[] = [];
  if (recorded.modelCalls.some((call) => !call.request)) notes.push('The recorded run predates request fingerprints: its model requests were compared by their messages only, not by model, parameters, system prompt or tools.');
  const unpriced = options.prices ? [...new Set(session.liveUsage.map((u) => u.model))].filter((model) => !options.prices!.has(model)) : [];
  if (unpriced.length > 0) notes.push(`Live calls to ${unpriced.join(', ')} (a judge's, a summary's) have no price and are not in the shadow's cost.`);
  const { undelivered } = steeringPlan(recorded);
  if (undelivered > 0) notes.push(`The recorded run got ${undelivered} message(s) from people it never gave the model (it ended first); the shadow was not sent them.`);
  return {
    workflowId: recorded.workflowId,
    shadowWorkflowId: session.shadowId,
    diverged: session.divergence !== undefined,
    firstDivergence: session.divergence ?? null,
    toolCallsRecorded: recorded.toolCalls.size,
    toolCallsShadow: session.toolCalls.size,
    wouldRun: session.wouldRun,
    completion,
    cost: options.prices ? { recordedUsd: costOf(recordedUsage(recorded), options.prices), shadowUsd: costOf(session.liveUsage, options.prices) } : { recordedUsd: null, shadowUsd: null },
    approvals: { recorded: recordedApprovals(recorded), shadow: approvals },
    modelCalls: { recorded: recorded.modelCalls.length, ...session.modelCalls },
    stopped: session.stopReason ?? null,
    notes,
  };
}
