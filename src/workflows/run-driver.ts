import { getExternalWorkflowHandle, proxySinks, setCurrentDetails, upsertMemo, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { AuditEntry } from '../runtime/audit/audit-record';
import type { LifecycleSinks } from '../contract/lifecycle-event';
import { FORK_REPLAY_GLOBAL, type ForkPointSinks } from '../contract/fork-point';
import { auditEntryOf } from './audit-entry';
import { audit, committedAudit } from './activity-stubs';
import type { RunEvent } from '../core/machine/run-events';
import type { RunState } from '../core/machine/run-state';
import { runDetails } from '../core/machine/run-details';
import { peekStep, transition } from '../core/machine/transition';
import type { TransitionEnv } from '../core/machine/transition-context';
import type { NextStep, StepFeatures } from '../core/machine/next-step';
import { historyIsFull } from './history-budget';
import type { StatusWatch } from './status-watch';
import { childStatusSignal } from '../contract/agent-run-api';
import { pendingBudgetOf } from '../core/machine/budget';
import { pendingQuestionsOf, pendingApprovalsOf } from '../core/machine/run-status';
import type { ChildWaiting } from '../contract/run-records';
import { AgentCostUsdKey, AgentNameKey, AgentStatusKey } from '../contract/search-attributes';
import { costOfUsage, roundUsd, type ModelPrice } from '../core/cost/usage-cost';

const { lifecycle } = proxySinks<LifecycleSinks>();
const { forkPoints } = proxySinks<ForkPointSinks>();
/** Set only in the bundle `agentctl fork` replays with (fork-replay.ts); a worker's bundle never has it. */
const forkReplay = () => workflowInfo().unsafe.isReplaying && (globalThis as Record<string, unknown>)[FORK_REPLAY_GLOBAL] === true;

/**
 * Holds the run's state and is the only way to change it: every outcome goes through `dispatch`,
 * which runs the pure transition and then publishes what follows from the new state, in one place:
 * the `AgentStatus` search attribute when the phase changed, the Web UI's current details, the
 * lifecycle events for the worker's handlers (a sink: not re-fired when a history is replayed), and
 * the audit lines of decisions, written by `flushAudit` before anything acts on them.
 */
export class RunDriver {
  private unaudited: AuditEntry[] = [];
  /** The audit flush in flight (one-writer executions): a later flush chains onto it, so none overtakes it. */
  private flushing: Promise<void> = Promise.resolve();
  /** `flushing` has been written (or there never was a flush): awaiting it would only cost promises (see auditIdle). */
  private flushed = true;
  /** The phase the `AgentStatus` search attribute holds. */
  private publishedPhase: string;
  /** The agent the `AgentName` search attribute holds (it changes with a handoff). */
  private publishedAgent: string | undefined;
  /** What this run last told its parent it waits for (one-writer executions: once the signal was delivered). */
  private toldParent = JSON.stringify({ approvals: [], questions: [] });
  /** What is on its way to the parent, and what could not be delivered (not sent again until it changes). */
  private tellingParent: string | undefined;
  private untold: string | undefined;
  /** The price of the model that answered last (none known: no cost), and whether `AgentCostUsd` may be upserted. */
  private price: ModelPrice | undefined;
  private costIndexed = true;
  /** The cost the `AgentCostUsd` search attribute holds (a continued link starts from its predecessor's). */
  private publishedCost: number | undefined;
  /** The history's length when this link first asked for a step (patch `link-makes-progress`). */
  private linkStart: number | undefined;

  constructor(
    public state: RunState,
    private readonly options: DriverOptions,
  ) {
    this.publishedPhase = state.phase;
    this.publishedCost = options.publishesCost ? workflowInfo().typedSearchAttributes.get(AgentCostUsdKey) : undefined;
  }

  /** The run's estimated cost so far in USD (all its usage at the price of the model that answered last), if a price is known. */
  costUsd(): number | undefined {
    return this.price ? roundUsd(costOfUsage(this.state.usage, this.price)) : this.publishedCost;
  }

  /** Sets the `AgentName` search attribute to the agent holding the run (at start, and after a handoff). */
  publishAgent(): void {
    if (this.state.agent.name === this.publishedAgent) return;
    this.publishedAgent = this.state.agent.name;
    upsertSearchAttributes([{ key: AgentNameKey, value: this.state.agent.name }]);
  }

  /**
   * Puts the run's user in its memo (patch `cost-search-attribute`), where `agentctl costs --by user`
   * reads it from the listing; a memo needs no registration on the server. Once per link at most.
   */
  publishUser(): void {
    if (!this.options.publishesCost || workflowInfo().memo?.user === this.state.input.user) return;
    upsertMemo({ user: this.state.input.user });
  }

  /**
   * Applies one event. The search attribute follows at once for events of the workflow's own steps;
   * a message handler passes `publish: false` and the main loop publishes when it picks the change
   * up, so the attribute changes after the wait that ended, as it always has (replays depend on it).
   */
  dispatch(event: RunEvent, options: { publish?: boolean } = {}): void {
    this.run(event, options);
  }

  /** Whether the link should hand over: its budget, counted once the link has done some work of its own (see history-budget.ts). */
  private historyFull(): boolean {
    if (!this.options.linkMakesProgress) return historyIsFull(this.state.input.historyBudget);
    this.linkStart ??= workflowInfo().historyLength;
    return historyIsFull(this.state.input.historyBudget, this.linkStart);
  }

  /** Asks the machine for the next step; what the step starts is marked started by the same transition. */
  nextStep(features: StepFeatures): NextStep {
    const [step] = this.run({ type: 'step_wanted' }, { step: { historyFull: this.historyFull(), features } });
    return step!;
  }

  /**
   * The step the machine would hand out now, without taking it: for a wait's condition, which must end
   * exactly when the step would change (a message's event, or the history filling up, which is no event).
   * `at` pins the clock and the history's fullness to what a wait saw
   * when it began (see take-step.ts): a refused update's workflow task leaves no event, so a step
   * that changed only because time passed in such a task would not replay.
   */
  peekStep(features: StepFeatures, at?: { now: number; historyFull: boolean }): NextStep {
    const info = workflowInfo();
    const now = at?.now ?? Date.now();
    const historyFull = at?.historyFull ?? this.historyFull();
    return peekStep(this.state, { now, runId: info.runId, namespace: info.namespace, firstRunId: info.firstExecutionRunId, historyFull, features, containedCalls: this.options.containedCalls, allowedCallLines: this.options.allowedCallLines });
  }

  /** The clock and the history's fullness a wait pins its peeks to. */
  peekMoment(): { now: number; historyFull: boolean } {
    return { now: Date.now(), historyFull: this.historyFull() };
  }

  private run(event: RunEvent, options: { publish?: boolean; step?: Pick<TransitionEnv, 'historyFull' | 'features'> }): NextStep[] {
    const before = this.state;
    const info = workflowInfo();
    const env = { now: Date.now(), runId: info.runId, namespace: info.namespace, firstRunId: info.firstExecutionRunId, containedCalls: this.options.containedCalls, allowedCallLines: this.options.allowedCallLines, ...options.step };
    const { state, effects, events } = transition(before, event, env);
    this.state = state;
    if (event.type === 'model_replied') {
      this.price = event.price ?? this.price;
      this.costIndexed = event.costAttribute !== false;
    }
    if (options.publish !== false) this.publish();
    setCurrentDetails(runDetails(state));
    for (const e of events) {
      lifecycle.emit(e);
      const entry = this.options.auditing ? auditEntryOf(e, before, state) : undefined;
      if (entry) this.unaudited.push(entry);
    }
    this.tellParent();
    this.options.watch?.moved(state);
    if (events.some((e) => e.name === 'iterationCompleted')) this.publishCost();
    // Only the fork replayer hands the state out: `agentctl fork` reads the state after iteration N this way.
    if (forkReplay() && events.some((e) => e.name === 'iterationCompleted')) forkPoints.iterationEnded(state);
    return effects;
  }

  /**
   * A sub-agent's run tells its parent whenever what it waits for changes (its own sub-agents'
   * waits included), so approvals and questions of the whole tree reach the root.
   */
  private tellParent(): void {
    const parent = this.state.lineage.parentWorkflowId;
    if (!parent) return;
    const budget = this.state.outcome ? undefined : pendingBudgetOf(this.state);
    // `budget` only when the run waits for one (issue 34), so the reports of runs without a budget read as before.
    const waiting: ChildWaiting = this.state.outcome ? { approvals: [], questions: [] } : { approvals: pendingApprovalsOf(this.state), questions: pendingQuestionsOf(this.state), ...(budget ? { budget } : {}) };
    const told = JSON.stringify(waiting);
    const signal = () => getExternalWorkflowHandle(parent).signal(childStatusSignal, { workflowId: this.state.workflowId, waiting });
    if (!this.options.oneWriter) {
      if (told === this.toldParent) return;
      this.toldParent = told;
      // The parent may have ended meanwhile; nothing to tell then.
      signal().catch(() => undefined);
      return;
    }
    if (told === this.toldParent || told === this.tellingParent || told === this.untold) return;
    this.tellingParent = told;
    signal().then(
      () => {
        this.toldParent = told;
        if (this.tellingParent === told) this.tellingParent = undefined;
      },
      (error: unknown) => {
        if (this.tellingParent === told) this.tellingParent = undefined;
        this.untold = told;
        // Reported to the loop, which records it (the parent ended, or never existed).
        this.options.report?.({ type: 'parent_unreachable', parent, error: error instanceof Error ? error.message : String(error) });
      },
    );
  }

  /** Queues an audit line no lifecycle event stands for (a continuation's requester); the next flush writes it. */
  audit(entry: AuditEntry): void {
    if (this.options.auditing) this.unaudited.push(entry);
  }

  /** Brings the `AgentStatus` search attribute in line with the phase (an upsert only when it changed). */
  publish(): void {
    if (this.publishedAgent !== undefined) this.publishAgent();
    if (this.state.phase === this.publishedPhase) return;
    this.publishedPhase = this.state.phase;
    upsertSearchAttributes([{ key: AgentStatusKey, value: this.state.phase }]);
  }

  /**
   * Upserts `AgentCostUsd` when an iteration ended (so at most once per iteration) and the figure
   * changed. Not when the worker said the attribute is missing on its namespace: upserting an
   * unregistered attribute would fail every workflow task of the run.
   */
  private publishCost(): void {
    if (!this.options.publishesCost || !this.costIndexed) return;
    const cost = this.costUsd();
    if (cost === undefined || cost === this.publishedCost) return;
    this.publishedCost = cost;
    upsertSearchAttributes([{ key: AgentCostUsdKey, value: cost }]);
  }

  /**
   * Writes the audit lines of decisions made so far (a local activity; nothing when there are none).
   * In a one-writer execution it resolves only once every line handed out before is on disk: a flush
   * that finds nothing new still waits for the one in flight, and a new one starts after it.
   */
  flushAudit(): Promise<void> {
    if (!this.options.oneWriter) return this.legacyFlush();
    if (this.unaudited.length === 0) return this.flushing;
    const entries = this.unaudited;
    this.unaudited = [];
    this.flushed = false;
    // A flush that failed (the run was cancelled mid-write) does not keep later lines from being tried,
    // and its lines go back to the front of the queue: the run's end writes them (run-loop.ts endRun).
    const written = this.flushing
      .catch(() => undefined)
      .then(async () => {
        // An activity task starts only once the server has kept the workflow task that scheduled it. A
        // task it never keeps (its worker died, or it was refused) is run again from the history, where
        // the messages may come in another order and decide otherwise; a line a local activity had
        // written from inside it would stay in the log (the fuzzer's seed 1).
        await (this.options.auditAfterCommit ? committedAudit : audit).recordAudit(entries);
        // Only the last flush handed out settles the driver: an earlier one's success says nothing of it.
        if (this.flushing === written) this.flushed = true;
      })
      .catch((error: unknown) => {
        this.unaudited = [...entries, ...this.unaudited];
        throw error;
      });
    this.flushing = written;
    return written;
  }

  /**
   * Whether a flush would write nothing and wait for nothing (a one-writer execution with no line
   * queued and the last flush written): the loop then goes on without awaiting it. Every workflow-side
   * promise costs the SDK a captured stack trace (issue 37), and the loop passes here three times an
   * iteration. A failed flush keeps it false, so its failure still reaches whoever awaits the next one.
   */
  auditIdle(): boolean {
    return this.options.oneWriter && this.flushed && this.unaudited.length === 0;
  }

  /** Executions from before the one-writer patch: a flush that finds nothing new returns at once (replays depend on it). */
  private async legacyFlush(): Promise<void> {
    if (this.unaudited.length === 0) return;
    const entries = this.unaudited;
    this.unaudited = [];
    await audit.recordAudit(entries);
  }
}

/** How a driver behaves in this execution (see patches.ts), and where it reports what it learns on its own. */
export interface DriverOptions {
  /** Decisions are written to the audit log (patch auditDecisions). */
  auditing: boolean;
  /** The one-writer execution: flushes chain, and the parent is told until a signal is delivered. */
  oneWriter: boolean;
  /** Patch `contained-calls`: this execution judges calls by issue 30's rules (see TransitionEnv). */
  containedCalls: boolean;
  /** Patch `rule-decision-lines`: calls the policy lets run unasked that may change something get a decision line (see TransitionEnv). */
  allowedCallLines?: boolean;
  /** Patch `cost-search-attribute`: the run upserts `AgentCostUsd` (see publishCost). */
  publishesCost?: boolean;
  /** Patch `link-makes-progress`: a link's history budget counts only once the link has made some events of its own. */
  linkMakesProgress?: boolean;
  /** Patch `audit-after-commit`: a flush writes by an activity task, which starts only once the deciding workflow task is kept (see flushAudit). */
  auditAfterCommit?: boolean;
  /** Takes the event of something the driver learned outside a transition (a parent it could not tell). */
  report?: (event: RunEvent) => void;
  /** Pushes the status to the worker's relay while a `watchStatus` query has armed it (one-writer executions). */
  watch?: StatusWatch;
}
