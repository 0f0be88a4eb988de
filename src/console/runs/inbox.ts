// What waits for a person, across all runs: parked tool calls, open questions and spend budgets, newest
// first, each under the root run it belongs to (a sub-agent's call names its own run in `workflowId`).
import type { RunStatus } from '../../contract/run-status';
import { describeCallArguments, type CallArguments } from './call-arguments';
import { argumentsHash } from '../../core/approvals/signatures/signed-message';

interface EntryBase {
  /** Unique across the inbox: the deciding run and the call. */
  key: string;
  /** The top-level run; equal to `workflowId` unless a sub-agent asks. */
  rootWorkflowId: string;
  /** The run that waits for the answer, and receives it. */
  workflowId: string;
  callId: string;
  agent: string;
  task: string;
  /** When it started waiting (ISO); the page shows how long ago. */
  since: string;
}

export interface ApprovalEntry extends EntryBase {
  kind: 'approval';
  tool: string;
  /** The rule that made the run ask (e.g. "write tools: approve"). */
  reason: string;
  /** What the model said in the same turn. */
  context?: string;
  arguments: CallArguments;
  /** The call's input as the run reports it: what an edit starts from. */
  input: unknown;
  /**
   * sha256 of the canonical JSON of `input` (as signatures compute it): the page sends it back with a
   * decision, so the console decides and signs only the arguments the person saw (issue 32, finding 3).
   */
  argumentsHash: string;
  /** Who may decide; absent when anyone may. */
  approvers?: string[];
  signedDecisions: boolean;
}

export interface QuestionEntry extends EntryBase {
  kind: 'question';
  question: string;
  context?: string;
}

/**
 * A run parked by its spend budget (issue 34): what it spent against its limits. `workflowId` is the
 * run that waits (a sub-agent's, maybe); a raise goes to the root, which forwards it there.
 */
export interface BudgetEntry extends EntryBase {
  kind: 'budget';
  spentUsd?: number;
  maxUsd?: number;
  spentTokens: number;
  maxTokens?: number;
  /** Who may raise it (the root's approvers); absent when anyone may. */
  approvers?: string[];
  signedDecisions: boolean;
}

export type InboxEntry = ApprovalEntry | QuestionEntry | BudgetEntry;

/** What one person sees of an entry: whether they may decide it, and why not. */
export type InboxItem = InboxEntry & { canDecide: boolean; readOnlyReason?: string };

/** A run's status together with where it sits in a tree of runs. */
export interface WaitingRun {
  status: RunStatus;
  rootWorkflowId: string;
}

/**
 * Arguments are rendered once per call and arguments (a diff reads a file), then reused on every poll.
 * The cache key holds the arguments hash: a call edited by another approver parks again under the
 * same id, and its card must show the new arguments, not the ones rendered first.
 */
export class InboxBuilder {
  private readonly rendered = new Map<string, Promise<CallArguments>>();
  constructor(private readonly workspace: string | undefined) {}

  /**
   * A run lists its own waits and its sub-agents' (each naming the run that waits); a sub-agent run
   * listed by visibility reports its own again. The key (waiting run + call) keeps one of each, the
   * waiting run's own report when there is one (it knows its agent and task).
   */
  async build(runs: readonly WaitingRun[]): Promise<InboxEntry[]> {
    const entries = new Map<string, InboxEntry>();
    for (const { status, rootWorkflowId } of runs) {
      for (const p of status.pendingApprovals) {
        const key = `${p.workflowId}/${p.callId}`;
        if (entries.has(key) && p.workflowId !== status.workflowId) continue;
        const hash = argumentsHash(p.input);
        entries.set(key, {
          kind: 'approval',
          key,
          rootWorkflowId,
          workflowId: p.workflowId,
          callId: p.callId,
          agent: p.workflowId === status.workflowId ? status.agent : 'sub-agent',
          task: status.task,
          since: p.requestedAt,
          tool: p.tool,
          reason: p.reason,
          context: p.context,
          arguments: await this.argumentsOf(`${key}#${hash}`, p),
          input: p.input,
          argumentsHash: hash,
          // The waiting run's own restriction travels with the call; the listing run's is the fallback.
          approvers: p.approvers ?? (p.workflowId === status.workflowId ? status.approvers : undefined),
          signedDecisions: status.signedDecisions,
        });
      }
      for (const q of status.pendingQuestions ?? []) {
        const key = `${q.workflowId}/question/${q.callId}`;
        if (entries.has(key) && q.workflowId !== status.workflowId) continue;
        const agent = q.workflowId === status.workflowId ? status.agent : 'sub-agent';
        entries.set(key, { kind: 'question', key, rootWorkflowId, workflowId: q.workflowId, callId: q.callId, agent, task: status.task, since: q.askedAt, question: q.question, context: q.context });
      }
      const budget = budgetEntryOf(status, rootWorkflowId);
      // The root's report wins: a raise goes to the root, whose approvers decide it.
      if (budget && !(entries.has(budget.key) && status.workflowId !== rootWorkflowId)) entries.set(budget.key, budget);
    }
    const shown = new Set([...entries.values()].map((e) => (e.kind === 'approval' ? `${e.key}#${e.argumentsHash}` : e.key)));
    for (const key of this.rendered.keys()) if (!shown.has(key)) this.rendered.delete(key);
    return sortNewestFirst([...entries.values()]);
  }

  private argumentsOf(key: string, call: RunStatus['pendingApprovals'][number]): Promise<CallArguments> {
    let rendered = this.rendered.get(key);
    if (!rendered) {
      rendered = describeCallArguments(call, this.workspace);
      this.rendered.set(key, rendered);
    }
    return rendered;
  }
}

function budgetEntryOf(status: RunStatus, rootWorkflowId: string): BudgetEntry | undefined {
  const b = status.pendingBudget;
  if (!b) return undefined;
  const own = b.workflowId === status.workflowId;
  return {
    kind: 'budget',
    key: `${b.workflowId}/budget`,
    rootWorkflowId,
    workflowId: b.workflowId,
    callId: 'budget',
    agent: own ? status.agent : 'sub-agent',
    task: status.task,
    since: b.since,
    ...(b.spentUsd !== undefined ? { spentUsd: b.spentUsd } : {}),
    ...(b.maxUsd !== undefined ? { maxUsd: b.maxUsd } : {}),
    spentTokens: b.spentTokens,
    ...(b.maxTokens !== undefined ? { maxTokens: b.maxTokens } : {}),
    ...(status.approvers ? { approvers: status.approvers } : {}),
    signedDecisions: status.signedDecisions,
  };
}

/** Newest first, but a root's sub-agent calls stay together, in the place of the root's newest. */
export function sortNewestFirst(entries: InboxEntry[]): InboxEntry[] {
  const newestOfRoot = new Map<string, string>();
  for (const e of entries) if ((newestOfRoot.get(e.rootWorkflowId) ?? '') < e.since) newestOfRoot.set(e.rootWorkflowId, e.since);
  return entries.sort(
    (a, b) =>
      newestOfRoot.get(b.rootWorkflowId)!.localeCompare(newestOfRoot.get(a.rootWorkflowId)!) ||
      a.rootWorkflowId.localeCompare(b.rootWorkflowId) ||
      b.since.localeCompare(a.since),
  );
}

/** The entry as `user` sees it. The run has the last word: a refused decision still comes back with its reason. */
export function inboxItemFor(entry: InboxEntry, user: string): InboxItem {
  if (entry.kind === 'question' || !entry.approvers || entry.approvers.includes(user)) return { ...entry, canDecide: true };
  const what = entry.kind === 'budget' ? "raise this run's budget" : 'decide this call';
  return { ...entry, canDecide: false, readOnlyReason: `Only ${entry.approvers.join(', ') || 'nobody'} may ${what}; you are ${user}.` };
}
