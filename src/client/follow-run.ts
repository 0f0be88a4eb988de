// Follows a run live from a terminal: reads its status (pushed by a worker's live relay, or by
// polling the `status` query; see run-feed.ts), prints what is new (iterations, the model's text as it
// streams, tool calls with timing and outcome, decisions, task progress), hands approvals and
// questions to the caller, and ends with how the run ended. Used by `agentctl run`, `agentctl watch`
// and `npm start`.
import type { Client, WorkflowHandle } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/client';
import { formatEvent } from '../runtime/lifecycle/console-logger';
import type { Completion } from '../contract/control-tools';
import type { PendingApproval, RunStatus } from '../contract/run-status';
import { queryStatus } from './approval-helpers';
import { isQuietCall, renderDecision, renderOutcome, renderProgress, renderToolCall } from './render-status';
import { LiveTextTracker, type TextDeltaEvent, type ThinkingDeltaEvent } from './live-text';
import { RunFeed } from './run-feed';
import type { RunOutcome } from './run-outcome';
import { NoWorkerAnsweredError } from './errors';
import { terminalSafe } from './terminal-safe';

export interface FollowOptions {
  out(line: string): void;
  /** Writes part of a line: with it, the model's text is printed as it streams, under its iteration. */
  write?(fragment: string): void;
  /** Receives the model's text as it streams instead (`--json` prints these as `text_delta` events). */
  onText?(delta: TextDeltaEvent): void;
  /** Receives the model's thinking as it streams; without it, `write` prints it dimmed unless `hideThinking`. */
  onThinking?(delta: ThinkingDeltaEvent): void;
  /** `--no-thinking`: the model's thinking is not shown. */
  hideThinking?: boolean;
  /** How often to read the model's text while it streams, when no relay pushes it. */
  textPollMs?: number;
  /** How often to ask the run for its status, when no relay pushes it. */
  pollMs?: number;
  /** Take the status and text from a worker's live relay when one is reachable (default true; AGENT_WATCH_RELAY). */
  relay?: boolean;
  /** How long one status query may wait for a worker before the follower says none answers. */
  queryTimeoutMs?: number;
  /** Called once for calls that newly wait for approval; returns when they are decided or explained. */
  onApprovals(status: RunStatus, fresh: PendingApproval[]): Promise<void>;
  /** Called once per question the agent asks. */
  onQuestion(status: RunStatus): Promise<void>;
  /** Aborting stops following (the run itself goes on). */
  signal?: AbortSignal;
}

/**
 * How following ended: the run ended, following was stopped, or the run is a thread that answered and
 * now waits for the next message (`idle`): the run goes on, but there is nothing more to follow.
 */
export type FollowResult = RunOutcome | { kind: 'stopped'; workflowId: string } | IdleThread;

export interface IdleThread {
  kind: 'idle';
  workflowId: string;
  /** The answer the thread gave last (its latest completion). */
  completion?: Completion;
}

/** Remembers what was printed, so each poll prints only what changed since the last one. */
export class RunPrinter {
  private iteration: number | undefined;
  private readonly seen = new Set<string>();
  private tasksJson = '[]';
  /** The model's text (`t<iteration>`) or thinking (`k<iteration>`) is being written and its line is still open. */
  private textOpen: string | undefined;
  private maxIterations = 0;
  private readonly out: (line: string) => void;

  constructor(
    out: (line: string) => void,
    private readonly write?: (fragment: string) => void,
  ) {
    this.out = (line) => {
      this.endLine();
      out(line);
    };
  }

  /** Prints streamed model text under its iteration's header, as it comes (indented like the rest). */
  text(delta: TextDeltaEvent): void {
    this.stream(`t${delta.iteration}`, delta, '  💬 ', (s) => s);
  }

  /** Prints streamed thinking like text, dimmed (SGR 2), so a reader tells the reasoning from the answer. */
  thinking(delta: ThinkingDeltaEvent): void {
    this.stream(`k${delta.iteration}`, delta, '  💭 ', (s) => `\x1b[2m${s}\x1b[22m`);
  }

  private stream(key: string, delta: Pick<TextDeltaEvent, 'iteration' | 'text'>, prefix: string, style: (s: string) => string): void {
    if (!this.write) return;
    if (this.iteration === undefined) this.startAt(delta.iteration);
    if (this.textOpen !== key) {
      this.headersUpTo(delta.iteration, this.maxIterations);
      this.endLine();
      this.write(prefix);
      this.textOpen = key;
    }
    this.write(style(terminalSafe(delta.text).replace(/\n/g, '\n     ')));
  }

  /** Ends a line of streamed text, before anything else is printed (a prompt, the outcome). */
  endLine(): void {
    if (this.textOpen === undefined) return;
    this.textOpen = undefined;
    this.write?.('\n');
  }

  private startAt(first: number): void {
    if (first > 1) this.out(`… ${first - 1} earlier iteration(s)`);
    this.iteration = Math.max(0, first - 1);
  }

  /**
   * Prints what is new in `status`, each line under the iteration it belongs to. A poll can see
   * several steps at once, so new items are sorted by iteration (stable: a decision before its call,
   * task progress after the calls of the turn that set it). The first status of a run already under
   * way starts at its present rather than replaying every earlier iteration header.
   */
  update(status: RunStatus): void {
    const items: { iteration: number; lines: string[] }[] = [];
    const iterationOf = (callId: string) => status.recentToolCalls.find((c) => c.callId === callId)?.iteration ?? status.iteration;
    for (const d of status.decisions.filter((d) => !this.seen.has(`decision/${d.callId}`))) {
      this.seen.add(`decision/${d.callId}`);
      items.push({ iteration: iterationOf(d.callId), lines: [`  ${renderDecision(d)}`] });
    }
    for (const call of status.recentToolCalls.filter((c) => c.outcome !== 'waiting' && !this.seen.has(`call/${c.callId}/${c.outcome}`))) {
      this.seen.add(`call/${call.callId}/${call.outcome}`);
      if (!isQuietCall(call)) items.push({ iteration: call.iteration, lines: [`  ${renderToolCall(call)}`] });
    }
    for (const e of status.events.filter((e) => (e.name === 'contextCompacted' || e.name === 'errorOccurred') && !this.seen.has(`event/${e.key}`))) {
      this.seen.add(`event/${e.key}`);
      items.push({ iteration: e.iteration, lines: [`  ${terminalSafe(formatEvent(e))}`] });
    }
    const tasksJson = JSON.stringify(status.tasks);
    if (tasksJson !== this.tasksJson) {
      this.tasksJson = tasksJson;
      const setBy = status.recentToolCalls.filter((c) => c.tool === 'update_tasks' && c.outcome === 'success').at(-1);
      items.push({ iteration: setBy?.iteration ?? status.iteration, lines: renderProgress(status.tasks, '    ').map((l) => `  ${l}`) });
    }
    items.sort((a, b) => a.iteration - b.iteration);
    this.maxIterations = status.maxIterations;
    if (this.iteration === undefined) this.startAt(Math.min(status.iteration, ...items.map((i) => i.iteration)));
    for (const item of items) {
      this.headersUpTo(item.iteration, status.maxIterations);
      item.lines.forEach((line) => this.out(line));
    }
    this.headersUpTo(status.iteration, status.maxIterations);
  }

  private headersUpTo(iteration: number, max: number): void {
    while (this.iteration! < iteration) {
      this.iteration! += 1;
      this.out(`── Iteration ${this.iteration}/${max || '?'}`);
    }
  }
}

/**
 * Waits for `work` unless the signal aborts first: a prompt blocked on a line the person will never
 * type must not keep Ctrl-C from stopping the follower. A later failure of abandoned work is dropped.
 */
async function untilAborted(work: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return void (await work);
  if (signal.aborted) return;
  let onAbort = () => {};
  const aborted = new Promise<void>((resolve) => (onAbort = resolve));
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
    work.catch(() => undefined);
  }
}

/** What a follower prints when a thread has answered and waits. */
export function renderIdle(idle: IdleThread): string {
  const answer = idle.completion ? `✅ ${idle.completion.status}: ${terminalSafe(idle.completion.summary)}\n` : '';
  return `${answer}The thread waits for the next message: agentctl send ${idle.workflowId} "...", or agentctl close ${idle.workflowId}.`;
}

/**
 * Follows `handle` until the run ends or `signal` aborts. The status (rather than the history) shows
 * what the run itself reports, works the same for every client, and costs the server nothing in
 * history; a worker's relay pushes it (and the model's text) when one is reachable, so a hundred
 * followers cost Temporal what one does. A query needs a worker: while none answers, the follower
 * says so once and waits.
 */
export async function followRun(client: Client, handle: WorkflowHandle, options: FollowOptions): Promise<FollowResult> {
  const printer = new RunPrinter(options.out, options.write);
  // The model's text: pushed or read from heartbeats while it streams, its end from the status once the reply is in.
  const onText = options.onText ?? (options.write ? (delta: TextDeltaEvent) => printer.text(delta) : undefined);
  const tracker = new LiveTextTracker(handle.workflowId);
  const onThinking = options.hideThinking ? undefined : (options.onThinking ?? (options.write ? (delta: ThinkingDeltaEvent) => printer.thinking(delta) : undefined));
  const feed = new RunFeed(handle, {
    signal: options.signal,
    tracker,
    ...(onText ? { onText, onThinking } : {}),
    pollMs: options.pollMs,
    textPollMs: options.textPollMs,
    queryTimeoutMs: options.queryTimeoutMs,
    relay: options.relay,
    onFallback: (why) => {
      printer.endLine();
      options.out(`⚠️ ${why}`);
    },
  });
  let outcome: RunOutcome | undefined;
  let outcomeError: unknown;
  // The result is a long poll; it is cancelled when following stops, so no call of ours is left
  // retrying against a connection the caller is about to close (or a server that is going away). It
  // starts only when the feed says the end is ours to watch: while a relay that watches the run's end
  // feeds this follower, the relay's one long poll stands in for every follower's (each held one, and
  // the server does work for every waiting poll at each of the run's steps).
  const longPoll = new AbortController();
  const ended = feed.outcome(longPoll.signal).then(
    (o) => void (outcome = o),
    (error: unknown) => void (outcomeError = error),
  );
  const handled = new Set<string>();
  let saidNoWorker = false;
  let idle: IdleThread | undefined;

  while (outcome === undefined && outcomeError === undefined && idle === undefined && !options.signal?.aborted) {
    const reading = await Promise.race([feed.next(), ended.then(() => undefined)]);
    if (reading === undefined) continue;
    if ('error' in reading) {
      const { error } = reading;
      if (error instanceof WorkflowNotFoundError) {
        await feed.close();
        throw error;
      }
      if (error instanceof NoWorkerAnsweredError && !saidNoWorker && outcome === undefined) {
        saidNoWorker = true;
        printer.endLine();
        options.out(`⏳ No worker answers for run ${handle.workflowId} yet; is \`npm run worker\` running on its task queue? Waiting...`);
      }
      continue; // "The run is starting" and other transient answers: ask again next time.
    }
    const { status } = reading;
    saidNoWorker = false;
    const tail = onText && tracker.fromStatus(status);
    if (tail) onText!(tail);
    printer.update(status);
    const fresh = status.phase === 'waiting_approval' ? status.pendingApprovals.filter((p) => !handled.has(p.callId)) : [];
    if (fresh.length > 0) {
      printer.endLine();
      fresh.forEach((p) => handled.add(p.callId));
      await untilAborted(options.onApprovals(status, fresh), options.signal);
    }
    const question = status.phase === 'waiting_input' ? status.pendingQuestion : undefined;
    if (question && !handled.has(`question/${question.callId}`)) {
      handled.add(`question/${question.callId}`);
      printer.endLine();
      await untilAborted(options.onQuestion(status), options.signal);
    }
    // A thread that answered waits for the next message, maybe for days: following ends here.
    if (status.phase === 'idle') {
      idle = { kind: 'idle', workflowId: handle.workflowId, completion: status.completions.at(-1) };
      break;
    }
  }
  // The run's last status as the relay pushes it (so a hundred watchers do not each make the worker
  // replay the closed run to answer a query); the run's end may be known a moment before the push.
  const pushedEnd = outcome !== undefined && idle === undefined ? await feed.endedStatus(1_000) : undefined;
  await feed.close();
  if (outcomeError !== undefined) throw outcomeError;
  if (idle) {
    longPoll.abort();
    printer.endLine();
    options.out(renderIdle(idle));
    return idle;
  }
  if (outcome === undefined) {
    printer.endLine();
    longPoll.abort();
    return { kind: 'stopped', workflowId: handle.workflowId };
  }
  // The last steps may have happened since the previous poll; without the relay's last push, a closed
  // run still answers the query.
  const last = pushedEnd ?? (await queryStatus(handle, 5_000).catch(() => undefined));
  const tail = last && onText && tracker.fromStatus(last);
  if (tail) onText!(tail);
  if (last) printer.update(last);
  printer.endLine();
  options.out(renderOutcome(outcome));
  return outcome;
}
