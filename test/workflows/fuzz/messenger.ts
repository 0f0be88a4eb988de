// Sends a schedule's actions to a run through the contract's signals, updates and queries, and keeps
// a log of every message: what it was, when it went, and what came back. Every message carries a
// tag of its own (as approver, reason or text), so the checkers can find exactly what it did.
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import {
  approvalSignal,
  closeSignal,
  closeThreadUpdate,
  decideApprovalsUpdate,
  decideApprovalUpdate,
  sendMessageUpdate,
  setModeUpdate,
  statusQuery,
  submitReplyUpdate,
  userMessageSignal,
  userReplySignal,
} from '../../../src/contract/agent-run-api';
import { watchStatusQuery } from '../../../src/contract/live-status';
import type { ApprovalDecision, DecisionOutcome } from '../../../src/contract/approval-decision';
import type { RunStatus } from '../../../src/contract/run-status';
import type { Action } from './schedule';

/** What came back: an update's answer or refusal, a signal the server took, a query's answer, or an error. */
export type Outcome =
  | { type: 'applied'; message: string }
  | { type: 'refused'; message: string }
  /** Refused because the run had closed (the server answers NOT_FOUND): nothing to apply it to. */
  | { type: 'ended'; message: string }
  | { type: 'delivered' }
  | { type: 'answered'; phase: string }
  | { type: 'error'; message: string };

export interface SentMessage {
  tag: string;
  /** The action's kind, or `drain` for the harness's own clean-up decisions, replies and closes. */
  kind: Action['kind'] | 'drain';
  via: 'signal' | 'update' | 'query' | 'cancel' | 'none';
  /** The update's or signal's name. */
  name: string;
  payload: unknown;
  /** The calls a decision names. */
  callIds: string[];
  /** Sent before the run's status query first answered (its start), or within 1 s of a new link appearing. */
  edge?: 'start' | 'link';
  sentAt: number;
  /** How many links the watch had seen when it was sent. */
  link: number;
  outcome?: Outcome;
  settledAt?: number;
}

/** A clean-up message of the drain (see `drain`). */
export interface DrainAction {
  kind: 'drain';
  what: 'decide' | 'reply' | 'close';
  callId?: string;
  channel: 'update' | 'signal';
}

export interface MessengerContext {
  handle: WorkflowHandle;
  /** The status the watch saw last. */
  status: () => RunStatus | undefined;
  links: () => number;
  /** When the newest link was first seen (for `edge: 'link'`). */
  linkSeenAt: () => number;
  restart: () => Promise<void>;
  statusAnswered: () => boolean;
}

/** The error and what it wraps (a ServiceError's gRPC cause says what the server refused). */
function messageOf(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error && parts.length < 4; e = e.cause) parts.push(`${e.name}: ${e.message}`);
  return parts.length > 0 ? parts.join(' <- ') : String(error);
}

/** An update's answer, refusal or error, as the log keeps it. */
async function updateOutcome(call: () => Promise<DecisionOutcome>): Promise<Outcome> {
  try {
    const answer = await call();
    return answer.applied ? { type: 'applied', message: answer.message } : { type: 'refused', message: answer.message };
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError) return { type: 'refused', message: error.cause?.message ?? error.message };
    if (error instanceof WorkflowNotFoundError || /workflow execution already completed/i.test(messageOf(error))) return { type: 'ended', message: messageOf(error) };
    // Refused by the server before the run accepted it, with the reason: its cap on updates in flight for
    // one workflow (10 by default), or a workflow task that failed while the update was in it (a signal or
    // a cancel came meanwhile, UnhandledCommand; servers from 1.27 abort such updates). Nothing may have
    // been applied: the checkers hold them to that like any other refusal.
    if (/RESOURCE_EXHAUSTED|FAILED_PRECONDITION: Unable to perform workflow execution update due to unexpected workflow task failure/.test(messageOf(error))) {
      return { type: 'refused', message: `refused by the server: ${messageOf(error)}` };
    }
    return { type: 'error', message: messageOf(error) };
  }
}

async function signalOutcome(call: () => Promise<void>): Promise<Outcome> {
  try {
    await call();
    return { type: 'delivered' };
  } catch (error) {
    if (error instanceof WorkflowNotFoundError || /workflow execution already completed/i.test(messageOf(error))) return { type: 'ended', message: messageOf(error) };
    return { type: 'error', message: messageOf(error) };
  }
}

export class Messenger {
  readonly log: SentMessage[] = [];
  private readonly inFlight: Promise<void>[] = [];
  private serial = 0;
  private queries = 0;
  /** Calls a decision was already sent for: the next decision prefers another waiting call. */
  readonly targeted = new Set<string>();
  readonly answered = new Set<string>();

  constructor(
    private readonly ctx: MessengerContext,
    private readonly tagPrefix: string,
  ) {}

  /** Resolves when every message sent so far has settled, or false after `timeoutMs`. */
  async settled(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const all = Promise.all(this.inFlight).then(() => true);
    return Promise.race([all, timeout]).finally(() => clearTimeout(timer));
  }

  /** Sends one action; returns once it is sent (its answer is awaited in the background). */
  async send(action: Action | DrainAction): Promise<void> {
    const { handle } = this.ctx;
    const status = this.ctx.status();
    switch (action.kind) {
      case 'decide': {
        const pending = status?.pendingApprovals ?? [];
        const target = action.target === 'bogus' ? undefined : (pending.find((p) => !this.targeted.has(p.callId)) ?? pending[0]);
        const tag = this.tag();
        const decision: ApprovalDecision = { callId: target?.callId ?? `no-such-call-${tag}`, decision: action.decision, approver: tag, reason: tag };
        if (action.decision === 'approve_always') decision.scope = 'tool';
        if (action.edit && target && action.decision !== 'reject') decision.arguments = { ...(target.input as object), note: `edited ${tag}` };
        if (target) this.targeted.add(target.callId);
        return action.channel === 'signal'
          ? this.track(tag, action.kind, 'signal', 'approval', decision, [decision.callId], () => signalOutcome(() => handle.signal(approvalSignal, decision)))
          : this.track(tag, action.kind, 'update', 'decideApproval', decision, [decision.callId], () => updateOutcome(() => handle.executeUpdate(decideApprovalUpdate, { args: [decision] })));
      }
      case 'decideBatch': {
        const tag = this.tag();
        const pending = status?.pendingApprovals ?? [];
        const calls = pending.length > 0 ? pending : [{ callId: `no-such-call-${tag}`, input: {} }];
        const decisions: ApprovalDecision[] = calls.map((p, i) => ({
          callId: p.callId,
          decision: action.decision,
          approver: tag,
          reason: tag,
          ...(action.edit && i === 0 && action.decision === 'approve' && pending.length > 0 ? { arguments: { ...(p.input as object), note: `edited ${tag}` } } : {}),
        }));
        for (const d of decisions) this.targeted.add(d.callId);
        const payload = { decisions };
        return this.track(tag, action.kind, 'update', 'decideApprovals', payload, decisions.map((d) => d.callId), () => updateOutcome(() => handle.executeUpdate(decideApprovalsUpdate, { args: [payload] })));
      }
      case 'reply': {
        const tag = this.tag();
        const question = status?.pendingQuestions.find((q) => !this.answered.has(q.callId)) ?? status?.pendingQuestions[0];
        if (question) this.answered.add(question.callId);
        const payload = { text: `reply ${tag}`, ...(question ? { callId: question.callId } : {}) };
        const callIds = question ? [question.callId] : [];
        return action.channel === 'signal'
          ? this.track(tag, action.kind, 'signal', 'userReply', payload, callIds, () => signalOutcome(() => handle.signal(userReplySignal, payload)))
          : this.track(tag, action.kind, 'update', 'submitReply', payload, callIds, () => updateOutcome(() => handle.executeUpdate(submitReplyUpdate, { args: [payload] })));
      }
      case 'followUp': {
        for (let i = 0; i < action.count; i++) {
          const tag = this.tag();
          const payload = { text: `follow-up ${tag}` };
          void (action.channel === 'signal'
            ? this.track(tag, action.kind, 'signal', 'userMessage', payload, [], () => signalOutcome(() => handle.signal(userMessageSignal, payload)))
            : this.track(tag, action.kind, 'update', 'sendMessage', payload, [], () => updateOutcome(() => handle.executeUpdate(sendMessageUpdate, { args: [payload] }))));
        }
        return;
      }
      case 'setMode': {
        const tag = this.tag();
        const payload = { mode: action.mode, by: 'fuzzer', reason: tag };
        return this.track(tag, action.kind, 'update', 'setMode', payload, [], () => updateOutcome(() => handle.executeUpdate(setModeUpdate, { args: [payload] })));
      }
      case 'close': {
        const tag = this.tag();
        return action.channel === 'signal'
          ? this.track(tag, action.kind, 'signal', 'close', {}, [], () => signalOutcome(() => handle.signal(closeSignal)))
          : this.track(tag, action.kind, 'update', 'closeThread', {}, [], () => updateOutcome(() => handle.executeUpdate(closeThreadUpdate)));
      }
      case 'cancel':
        return this.track(this.tag(), action.kind, 'cancel', 'cancel', {}, [], () => signalOutcome(() => handle.cancel().then(() => undefined)));
      case 'cancelChild': {
        const child = status?.children.find((c) => c.running) ?? status?.children[0];
        if (!child) return;
        const target = handle.client.getHandle(child.workflowId);
        return this.track(this.tag(), action.kind, 'cancel', `cancel ${child.workflowId}`, {}, [], () => signalOutcome(() => target.cancel().then(() => undefined)));
      }
      case 'query': {
        // Every other query is the relay's `watchStatus`, which arms the run to push its statuses
        // through a sink (contract/live-status.ts); chosen by count, so the seeds' schedules stay as they were.
        const query = (this.queries++ % 2 === 0) ? statusQuery : watchStatusQuery;
        return this.track(this.tag(), action.kind, 'query', query.name, {}, [], async () => {
          try {
            const answer = await handle.client.withDeadline(Date.now() + 10_000, () => handle.query(query));
            return { type: 'answered', phase: answer.phase };
          } catch (error) {
            return { type: 'error', message: messageOf(error) };
          }
        });
      }
      case 'pad': {
        // Sent one after the other, so they land in as many workflow tasks as the server makes of them.
        const tag = this.tag();
        for (let i = 0; i < action.count; i++) {
          await handle.signal(approvalSignal, { callId: `pad-${tag}-${i}`, decision: 'approve', approver: tag }).catch(() => undefined);
        }
        return;
      }
      case 'restartWorker':
        return this.track(this.tag(), action.kind, 'none', 'restart', {}, [], async () => {
          await this.ctx.restart();
          return { type: 'delivered' };
        });
      case 'drain':
        return this.drain(action);
    }
  }

  /**
   * The harness's own clean-up, as a person would do it: by update first; by signal when the same call
   * still waits on a later round (the server's cap on updates in flight may keep an update out while
   * long-waiting ones hold it, and a signal gets in regardless).
   */
  private drain({ what, callId, channel }: DrainAction): Promise<void> {
    const { handle } = this.ctx;
    const tag = this.tag('drain');
    if (what === 'decide') {
      const decision: ApprovalDecision = { callId: callId!, decision: 'approve', approver: tag, reason: tag };
      return channel === 'signal'
        ? this.track(tag, 'drain', 'signal', 'approval', decision, [callId!], () => signalOutcome(() => handle.signal(approvalSignal, decision)))
        : this.track(tag, 'drain', 'update', 'decideApproval', decision, [callId!], () => updateOutcome(() => handle.executeUpdate(decideApprovalUpdate, { args: [decision] })));
    }
    if (what === 'reply') {
      const payload = { text: `reply ${tag}`, ...(callId ? { callId } : {}) };
      return channel === 'signal'
        ? this.track(tag, 'drain', 'signal', 'userReply', payload, callId ? [callId] : [], () => signalOutcome(() => handle.signal(userReplySignal, payload)))
        : this.track(tag, 'drain', 'update', 'submitReply', payload, callId ? [callId] : [], () => updateOutcome(() => handle.executeUpdate(submitReplyUpdate, { args: [payload] })));
    }
    return channel === 'signal'
      ? this.track(tag, 'drain', 'signal', 'close', {}, [], () => signalOutcome(() => handle.signal(closeSignal)))
      : this.track(tag, 'drain', 'update', 'closeThread', {}, [], () => updateOutcome(() => handle.executeUpdate(closeThreadUpdate)));
  }

  private tag(kind = 'm'): string {
    return `${this.tagPrefix}-${kind}${++this.serial}`;
  }

  private track(tag: string, kind: SentMessage['kind'], via: SentMessage['via'], name: string, payload: unknown, callIds: string[], call: () => Promise<Outcome>): Promise<void> {
    const now = Date.now();
    const edge = !this.ctx.statusAnswered() ? 'start' : this.ctx.links() > 1 && now - this.ctx.linkSeenAt() < 1_000 ? 'link' : undefined;
    const message: SentMessage = { tag, kind, via, name, payload, callIds, sentAt: now, link: this.ctx.links(), ...(edge ? { edge } : {}) };
    this.log.push(message);
    const settled = call().then((outcome) => {
      message.outcome = outcome;
      message.settledAt = Date.now();
    });
    this.inFlight.push(settled);
    return Promise.resolve();
  }
}
