import type { LifecycleEvent } from '../../contract/lifecycle-event';
import type { Effort } from '../../contract/model-options';
import type { TokenUsage } from '../../contract/messages';
import type { FollowUp } from '../../contract/approval-decision';
import type { RecordedRun } from './recorded-run';

/** What the replay does when the shadow needs a decision the recorded run has none for. */
export type DecideFlag = 'reject' | 'approve' | 'stop';

export interface ShadowOptions {
  /** Ask the real model from the first request that differs (default: stop there). */
  liveModel?: boolean;
  /** For approvals and questions the recorded run has no answer to (default `stop`). */
  decide?: DecideFlag;
  /** The run's own model id and effort, over the recorded run's (and the agent's). */
  model?: string;
  effort?: Effort;
}

/** Where a shadow first left its recorded run: a model request, a tool call, a decision on a call, or how the run ended. */
export type DivergenceKind = 'model_request' | 'tool_call' | 'decision' | 'completion';

/** The first place a shadow left its recorded run. */
export interface Divergence {
  /** The iteration it happened in (a model request's, or the turn of the call). */
  iteration: number;
  kind: DivergenceKind;
  /** In words: what differs. */
  what: string;
  /** The recorded run's side of what differs (null when it has none: a call it never made). */
  recorded: unknown;
  /** The shadow's side. */
  shadow: unknown;
}

/** A call with side effects the shadow reached and did not run. */
export interface WouldRun {
  iteration: number;
  callId: string;
  tool: string;
  arguments: unknown;
  /** `tool(args)`, as the report prints it. */
  call: string;
  /** The recorded run made the same call at the same point (it ran there, not here). */
  recorded: boolean;
}

/** How the shadow answered one tool call: from the record, run against the copy, or not at all. */
export type ToolAnswer = 'recorded' | 'ran_read_only' | 'stubbed';

/**
 * One shadow run's side of a replay: the recorded run it follows, what it did so far (model calls
 * answered from the record or by the live model, tool calls and how each was answered, what it would
 * have run), the first divergence, and whether it was stopped. The shadow worker's activities and
 * lifecycle handler write it; the driver (replay-run.ts) reads it for the report.
 */
export class ShadowSession {
  divergence?: Divergence;
  stopReason?: string;
  /** The shadow reached the point where the recorded (parked) run waits for a person: the record ends there. */
  atRecordEnd = false;
  /** The iteration of the shadow's latest model call. */
  iteration = 0;
  readonly modelCalls = { replayed: 0, live: 0 };
  /** The live model's usage, by model id, for the shadow's cost. */
  readonly liveUsage: { model: string; usage: TokenUsage }[] = [];
  readonly toolCalls = new Map<string, { tool: string; iteration: number; answer: ToolAnswer }>();
  readonly wouldRun: WouldRun[] = [];
  readonly events: LifecycleEvent[] = [];
  /** The model call each activity attempt answers, so a retried attempt gets the same one. */
  private readonly modelIndexOf = new Map<string, number>();
  private readonly summaryIndexOf = new Map<string, number>();
  private readonly stopped: Promise<string>;
  private resolveStopped!: (reason: string) => void;

  constructor(
    readonly recorded: RecordedRun,
    readonly shadowId: string,
    readonly options: Required<Pick<ShadowOptions, 'decide'>> & ShadowOptions,
    /** A throwaway copy of the original's workspace, made on first use (only read-only calls that match nothing need it). */
    readonly workspace: () => Promise<string>,
    /** The recorded run's messages from people, by the index of the model request that first carried them (shadow-messages.ts). */
    readonly steering: ReadonlyMap<number, FollowUp[]> = new Map(),
  ) {
    this.stopped = new Promise((resolve) => (this.resolveStopped = resolve));
  }

  /**
   * The shadow's model requests left the record: one differed from the recorded request, so from then
   * on only the live model (or nothing) answers, and tool calls are no longer the recorded ones. A
   * divergence that changes no request (a call let run by the policy instead of a person) keeps the
   * shadow on the record.
   */
  leftRecord = false;

  /** Keeps the first divergence; later ones follow from it. */
  diverge(divergence: Divergence): void {
    this.divergence ??= divergence;
  }

  /** Stops the shadow (the driver terminates its run); the first reason is kept. */
  stop(reason: string): void {
    if (this.stopReason !== undefined) return;
    this.stopReason = reason;
    this.resolveStopped(reason);
  }

  /** Resolves with the reason once the shadow was stopped. */
  whenStopped(): Promise<string> {
    return this.stopped;
  }

  /** The recorded model call the activity `activityId` answers: the next one, the first time it asks. */
  modelCallIndex(activityId: string): number {
    return index(this.modelIndexOf, activityId);
  }

  summaryIndex(activityId: string): number {
    return index(this.summaryIndexOf, activityId);
  }
}

function index(map: Map<string, number>, key: string): number {
  const known = map.get(key);
  if (known !== undefined) return known;
  map.set(key, map.size);
  return map.size - 1;
}
