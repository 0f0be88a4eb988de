// Runs one schedule against a real server: starts the run, sends each step's actions when its
// trigger fires, then drains the run (decides what still waits, answers questions, closes an idle
// thread) so that a run which could end does end. What happened is returned as a trace for the checkers.
import { randomUUID } from 'node:crypto';
import { startRun } from '../../../src/client/start-run';
import { collectEvidence, type Evidence } from './evidence';
import { Messenger, type SentMessage } from './messenger';
import { MAIN_AGENT, scriptSchedule, type ScriptedTasks } from './model-script';
import { RunWatch } from './run-watch';
import type { Schedule, Trigger } from './schedule';
import type { FuzzWorld, RunningWorker } from './world';

/** How long a trigger waits for its moment before the step goes out anyway. */
const TRIGGER_TIMEOUT_MS = 4_000;
/**
 * How long the drain waits for the run to end without seeing it move on: past it, the run is stuck. A
 * run that is still working through its queue (a thread with 15 follow-ups, a model that drops every
 * other call) moves on (a model reply, a turn, a link, a decision) and gets this long again from
 * there, up to DRAIN_CAP_MS in all (seed 5: a thread still ending a turn a second when the drain gave up).
 */
export const DRAIN_DEADLINE_MS = 30_000;
/** The most the drain waits for a run that keeps moving on. */
export const DRAIN_CAP_MS = 120_000;
/** How long messages may stay unanswered after the run closed (or the drain gave up). */
const SETTLE_MS = 10_000;

export interface Trace {
  schedule: Schedule;
  tag: string;
  workflowId: string;
  taskQueue: string;
  tasks: ScriptedTasks;
  messages: SentMessage[];
  /** What the executor saw happen, in order (trigger timeouts, restarts, the drain). */
  notes: string[];
  /** Links of the run's continue-as-new chain the watch saw. */
  links: number;
  /** The workflow's status name when the executor was done (TERMINATED when it had to end a stuck run). */
  closedAs: string;
  /** Set when the drain could not bring the run to its end: what it still showed. */
  stuck?: string;
  /** The workflow's own stack trace (the `__stack_trace` query) of a stuck run: where it waits. */
  stack?: string;
  /** When the fuzzer terminated a run it gave up on (answers that came after are not the run's). */
  terminatedAt?: number;
  elapsedMs: number;
}

export async function executeSchedule(world: FuzzWorld, schedule: Schedule): Promise<{ trace: Trace; evidence: Evidence }> {
  const began = Date.now();
  const tag = `fz${schedule.seed}x${randomUUID().slice(0, 4)}`;
  const tasks = scriptSchedule(world.fake, schedule, tag);
  // A schedule that restarts its worker gets its own task queue and worker; the rest share one.
  let worker: RunningWorker = schedule.restarts ? await world.startWorker(`${tag}-q`, tag) : world.shared;
  const notes: string[] = [];
  const client = world.client;
  const handle = await startRun(client, { agent: MAIN_AGENT, task: tasks.main, user: tag, historyBudget: { maxEvents: schedule.maxEvents }, ...(schedule.shape === 'thread' ? { followUps: true } : {}) }, { taskQueue: worker.taskQueue, workflowId: `${tag}-run` });
  const watch = new RunWatch(handle);
  let linkSeenAt = Date.now();
  let knownLinks = 0;
  const messenger = new Messenger(
    {
      handle: client.workflow.getHandle(handle.workflowId),
      status: () => watch.latest,
      links: () => {
        if (watch.links !== knownLinks) [knownLinks, linkSeenAt] = [watch.links, Date.now()];
        return watch.links;
      },
      linkSeenAt: () => linkSeenAt,
      restart: async () => {
        const queue = worker.taskQueue;
        notes.push(`restart: stopping the worker at link ${watch.links}`);
        await worker.stop();
        worker = await world.startWorker(queue, tag);
        notes.push(`restart: a new worker polls ${queue}`);
      },
      statusAnswered: () => watch.latest !== undefined,
    },
    tag,
  );
  watch.start();
  try {
    for (const [i, step] of schedule.steps.entries()) {
      if (watch.closed) {
        notes.push(`steps ${i}..${schedule.steps.length - 1} skipped: the run closed (${watch.closed})`);
        break;
      }
      const fired = await waitForTrigger(watch, step.trigger, messenger);
      if (!fired) notes.push(`step ${i}: ${step.trigger.on} did not happen within ${TRIGGER_TIMEOUT_MS} ms; sent anyway`);
      for (const action of step.actions) await messenger.send(action);
    }
    const stuck = await drain(watch, messenger, notes);
    await messenger.settled(stuck ? 0 : SETTLE_MS);
    let closedAs = watch.closed ?? 'RUNNING';
    let stack: string | undefined;
    let terminatedAt: number | undefined;
    if (!watch.closed) {
      stack = await client.withDeadline(Date.now() + 5_000, () => handle.query<string>('__stack_trace')).catch((error: unknown) => `no stack trace: ${String(error)}`);
      terminatedAt = Date.now();
      await handle.terminate('the fuzzer gave up on this run').catch(() => undefined);
      closedAs = 'TERMINATED';
      await messenger.settled(3_000);
    }
    await watch.stop();
    const evidence = await collectEvidence(world, client, handle.workflowId, `[${tag}:`);
    // Sub-agent runs left open by a terminated parent would stay on the server.
    for (const run of evidence.runs.slice(1)) await client.workflow.getHandle(run.workflowId).terminate('the fuzzer is done with this schedule').catch(() => undefined);
    const trace: Trace = {
      schedule,
      tag,
      workflowId: handle.workflowId,
      taskQueue: worker.taskQueue,
      tasks,
      messages: messenger.log,
      notes,
      links: watch.links,
      closedAs,
      ...(stuck ? { stuck } : {}),
      ...(stack ? { stack } : {}),
      ...(terminatedAt ? { terminatedAt } : {}),
      elapsedMs: Date.now() - began,
    };
    return { trace, evidence };
  } finally {
    await watch.stop();
    if (schedule.restarts) await worker.stop();
  }
}

function waitForTrigger(watch: RunWatch, trigger: Trigger, messenger: Messenger): Promise<boolean> {
  switch (trigger.on) {
    case 'now':
      return Promise.resolve(true);
    case 'sleep':
      return new Promise((resolve) => setTimeout(() => resolve(true), trigger.ms));
    case 'link': {
      const links = Math.max(1, watch.links);
      return watch.until(() => watch.links > links || Boolean(watch.closed), TRIGGER_TIMEOUT_MS);
    }
    case 'approval':
      return watch.until(() => Boolean(watch.closed) || (watch.latest?.pendingApprovals ?? []).some((p) => !messenger.targeted.has(p.callId)), TRIGGER_TIMEOUT_MS);
    case 'question':
      return watch.until(() => Boolean(watch.closed) || (watch.latest?.pendingQuestions ?? []).some((q) => !messenger.answered.has(q.callId)), TRIGGER_TIMEOUT_MS);
    case 'idle':
      return watch.until(() => Boolean(watch.closed) || watch.latest?.phase === 'idle', TRIGGER_TIMEOUT_MS);
  }
}

/**
 * Brings the run to its end as a person would: approves what waits, answers questions, closes an idle
 * thread. Returns what the run still showed if it did not end within the deadline (it is stuck).
 */
async function drain(watch: RunWatch, messenger: Messenger, notes: string[]): Promise<string | undefined> {
  const cap = Date.now() + DRAIN_CAP_MS;
  let deadline = Date.now() + DRAIN_DEADLINE_MS;
  let seen = '';
  const lastSent = new Map<string, number>();
  const rounds = new Map<string, number>();
  // Sent again only if the same thing still waits this long after the last try; the first try is an
  // update, later ones signals (see Messenger.drain).
  const due = (key: string): 'update' | 'signal' | undefined => {
    if (Date.now() - (lastSent.get(key) ?? 0) <= 3_000) return undefined;
    lastSent.set(key, Date.now());
    const round = (rounds.get(key) ?? 0) + 1;
    rounds.set(key, round);
    return round === 1 ? 'update' : 'signal';
  };
  while (!watch.closed && Date.now() < deadline) {
    const status = await watch.refresh();
    if (watch.closed) break;
    // What moves when the run works: its link, turn, model replies (usage), completions, decisions.
    const moved = status && JSON.stringify([watch.links, status.iteration, status.usage, status.completionCount ?? status.completions.length, status.decisions.length, status.phase]);
    if (moved && moved !== seen) {
      if (seen) deadline = Math.min(cap, Date.now() + DRAIN_DEADLINE_MS);
      seen = moved;
    }
    for (const p of status?.pendingApprovals ?? []) {
      const channel = due(`a:${p.callId}`);
      if (channel) await messenger.send({ kind: 'drain', what: 'decide', callId: p.callId, channel });
    }
    for (const q of status?.pendingQuestions ?? []) {
      const channel = due(`q:${q.callId}`);
      if (channel) await messenger.send({ kind: 'drain', what: 'reply', callId: q.callId, channel });
    }
    const closing = status?.phase === 'idle' ? due('close') : undefined;
    if (closing) await messenger.send({ kind: 'drain', what: 'close', channel: closing });
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  if (watch.closed) {
    notes.push(`drain: the run closed ${watch.closed}`);
    return undefined;
  }
  const s = watch.latest;
  return s
    ? `still ${s.phase} after ${Date.now() >= cap ? `${DRAIN_CAP_MS} ms of draining` : `${DRAIN_DEADLINE_MS} ms of draining without moving on`} (link ${watch.links}; ${s.pendingApprovals.length} approval(s) and ${s.pendingQuestions.length} question(s) waiting)`
    : `no status answered within ${DRAIN_DEADLINE_MS} ms of draining (link ${watch.links})`;
}
