import { QueryNotRegisteredError, type Client, type WorkflowHandle } from '@temporalio/client';
import type { ApprovalDecision, DecisionOutcome } from '../contract/approval-decision';
import { closeThreadUpdate } from '../contract/agent-run-api';
import type { AgentRunResult } from '../contract/run-result';
import type { PendingApproval, PendingQuestionView, RunStatus } from '../contract/run-status';
import type { AgentRunWorkflow } from '../contract/agent-run-api';
import { executeUpdate, queryStatus, resolveCallId, sendDecision, sendFollowUp, sendReply } from './approval-helpers';
import { RunDidNotCompleteError, RunEndedWhileWaitingError, RunWaitTimeoutError } from './errors';
import { resumeRun } from './resume-run';
import { followRunEvents, type RunEvent, type RunEventOptions } from './run-events';
import { awaitOutcome, endingDetail, failureOf, outcomeOfError, type RunOutcome } from './run-outcome';

const ENDED_PHASES: ReadonlySet<string> = new Set(['completed', 'max_iterations', 'guardrail_tripped', 'budget_exhausted', 'failed', 'cancelled']);

/** How a person decides a call; `callId` may be left out when exactly one call waits. */
export interface DecideOptions {
  callId?: string;
  /** Who decides (signed with their key when `agentctl keys create` made one). */
  approver?: string;
  reason?: string;
  /** Remember the choice for later calls: of this tool (`'tool'`), or of a command or path prefix. */
  remember?: 'tool' | { prefix: string };
}

export interface WaitOptions {
  /** Give up after this long with RunWaitTimeoutError (default 60 s). */
  timeoutMs?: number;
  /** How often the status is read (default 200 ms). */
  pollMs?: number;
}

/**
 * One run, for the rest of its life, from client code: follow it, decide its approvals, answer its
 * questions, message a thread, cancel, resume, and read its status and result. A thin layer over the
 * contract's signals, updates and queries (the same ones `agentctl` sends), so runs started elsewhere
 * can be attached to by id. Decisions and replies go as updates: the caller learns whether they were
 * applied (a refusal throws DecisionRefusedError), and they are signed when the person has a key.
 */
export class AgentRunHandle<TOutput = unknown> {
  constructor(
    /** The Temporal handle, for anything this class does not cover. */
    readonly temporal: WorkflowHandle<AgentRunWorkflow>,
    private readonly client: Client,
    private readonly taskQueue: string,
  ) {}

  get workflowId(): string {
    return this.temporal.workflowId;
  }

  /** The run's status as its `status` query reports it (a worker must answer, within 30 s by default). */
  status(timeoutMs?: number): Promise<RunStatus> {
    return queryStatus(this.temporal, timeoutMs);
  }

  /** Follows the run: lifecycle events, approvals and questions as they come, then how it ended. */
  events(options?: RunEventOptions): AsyncGenerator<RunEvent, void, undefined> {
    return followRunEvents(this.temporal, options);
  }

  /** Resolves with the calls waiting for approval as soon as there is at least one. */
  async waitForApprovals(options: WaitOptions = {}): Promise<PendingApproval[]> {
    const status = await this.waitFor('a call waiting for approval', (s) => s.pendingApprovals.length > 0, options);
    return status.pendingApprovals;
  }

  /** Resolves with the first question waiting for a reply. */
  async waitForQuestion(options: WaitOptions = {}): Promise<PendingQuestionView> {
    const status = await this.waitFor('a question', (s) => s.pendingQuestions.length > 0, options);
    return status.pendingQuestions[0]!;
  }

  /** Approves a waiting call (the only one, unless `callId` names one). */
  approve(options: DecideOptions = {}): Promise<DecisionOutcome> {
    return this.decide(options.remember ? 'approve_always' : 'approve', options);
  }

  /** Rejects a waiting call; the model is told it was rejected (and why, with `reason`). */
  reject(options: DecideOptions = {}): Promise<DecisionOutcome> {
    return this.decide(options.remember ? 'reject_always' : 'reject', options);
  }

  /** Sends a decision as it is (the `decideApproval` update), signed when its approver has a key. */
  async sendDecision(decision: ApprovalDecision): Promise<DecisionOutcome> {
    const status = await this.status();
    return sendDecision(this.temporal, decision, status.pendingApprovals.find((p) => p.callId === decision.callId));
  }

  /** Answers the agent's question (the only one, unless `callId` names one). */
  reply(text: string, options: { callId?: string; sender?: string } = {}): Promise<DecisionOutcome> {
    return sendReply(this.temporal, { text, ...options });
  }

  /** Sends a follow-up message to a thread (a run started with `followUps`). */
  sendMessage(text: string, sender?: string): Promise<DecisionOutcome> {
    return sendFollowUp(this.temporal, text, sender);
  }

  /** Ends a thread once it has answered (the `closeThread` update). */
  async closeThread(): Promise<DecisionOutcome> {
    return executeUpdate(this.temporal, 'the close', () => this.temporal.executeUpdate(closeThreadUpdate));
  }

  /** Asks Temporal to cancel the run; it stops at its next step and ends `cancelled`. */
  async cancel(): Promise<void> {
    await this.temporal.cancel();
  }

  /**
   * Starts the follow-up of an ended run (at its iteration cap, blocked, partial, failed or cancelled)
   * with its whole state; `maxIterations` more when given. Throws RunNotResumableError otherwise. A run
   * with approvers resumes only at one's request (`requestedBy`, signed with their key when they have one).
   */
  async resume(options: { maxIterations?: number; requestedBy?: string } = {}): Promise<AgentRunHandle<TOutput>> {
    const { handle } = await resumeRun(this.client, this.workflowId, { taskQueue: this.taskQueue, ...options });
    return new AgentRunHandle<TOutput>(handle, this.client, this.taskQueue);
  }

  /** How the run ended (waits for it): completed with its result, failed, cancelled, terminated or timed out. */
  outcome(): Promise<RunOutcome<TOutput>> {
    return awaitOutcome(this.temporal) as Promise<RunOutcome<TOutput>>;
  }

  /** The run's result (waits for it); a run that did not complete throws RunDidNotCompleteError saying how it ended. */
  async result(): Promise<AgentRunResult<TOutput>> {
    try {
      return (await this.temporal.result()) as AgentRunResult<TOutput>;
    } catch (error) {
      const outcome = outcomeOfError(this.workflowId, error);
      throw new RunDidNotCompleteError(`Run ${this.workflowId} did not complete; it ended ${outcome.kind}${endingDetail(outcome)}. Use outcome() to handle every ending.`, {
        cause: failureOf(error),
        outcome,
      });
    }
  }

  private async decide(decision: ApprovalDecision['decision'], options: DecideOptions): Promise<DecisionOutcome> {
    const status = await this.status();
    const callId = resolveCallId(status, options.callId);
    const payload: ApprovalDecision = { callId, decision };
    if (options.approver) payload.approver = options.approver;
    if (options.reason) payload.reason = options.reason;
    if (options.remember === 'tool') payload.scope = 'tool';
    else if (options.remember) payload.prefix = options.remember.prefix;
    return sendDecision(this.temporal, payload, status.pendingApprovals.find((p) => p.callId === callId));
  }

  /** The error for a run that ended while a caller waited: how it ended, and its failure as the cause. */
  private async endedWhileWaiting(what: string, phase: string): Promise<RunEndedWhileWaitingError> {
    // The run has ended, so its result is there at once; a run that was only paused by its own cap
    // (a thread between links) cannot be here, since its phase would not be an ended one.
    const ending = await this.temporal.result().then(
      () => undefined,
      (error: unknown) => ({ outcome: outcomeOfError(this.workflowId, error), cause: failureOf(error) }),
    ).catch(() => undefined);
    const detail = ending ? `${ending.outcome.kind}${endingDetail(ending.outcome)}` : phase;
    return new RunEndedWhileWaitingError(`Run ${this.workflowId} ended (${detail}) without ${what}.`, ending ?? {});
  }

  private async waitFor(what: string, ready: (status: RunStatus) => boolean, { timeoutMs = 60_000, pollMs = 200 }: WaitOptions): Promise<RunStatus> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // A run that has not run its first workflow task answers QueryNotRegisteredError: not yet.
      const status = await this.status(Math.max(1_000, deadline - Date.now())).catch((error: unknown) => {
        if (error instanceof QueryNotRegisteredError) return undefined;
        throw error;
      });
      // An ended run's status may still list what it waited for when it stopped: nothing more will come.
      if (status && ENDED_PHASES.has(status.phase)) throw await this.endedWhileWaiting(what, status.phase);
      if (status && ready(status)) return status;
      if (Date.now() >= deadline) throw new RunWaitTimeoutError(`Run ${this.workflowId} showed no ${what} within ${timeoutMs} ms (it is ${status?.phase ?? 'starting'}).`);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
}
