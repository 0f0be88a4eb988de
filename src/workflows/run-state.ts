import type { ResolvedAgent } from '../agents/resolved-agent';
import type { ToolApproval, ToolPreferences } from '../approvals/approval-policy';
import type { Completion, SavedSummary, Task } from '../control-tools';
import type { ConversationMessage, TokenUsage, ToolResultBlock } from '../conversation/messages';
import type { HistoryBudget } from './history-budget';
import type { PreferenceChange } from '../approvals/preference-messages';
import type { LifecycleEvent } from '../lifecycle/lifecycle-event';

export type RunPhase =
  | 'starting'
  | 'running'
  | 'compacting'
  | 'waiting_approval'
  | 'waiting_input'
  | 'completed'
  | 'max_iterations'
  | 'failed'
  | 'cancelled';

export type ApprovalDecisionValue = 'approve' | 'reject' | 'approve_always' | 'reject_always';

/** A tool call parked until a person decides. `callId` is the model's tool_use id. */
export interface PendingApproval {
  callId: string;
  tool: string;
  input: unknown;
  requestedAt: string;
  iteration: number;
  /** Why the policy asked (e.g. "write tools: approve"). */
  reason: string;
  /** What the model said in the same turn, so the person sees why it wants this. */
  context?: string;
}

export interface DecisionRecord {
  callId: string;
  tool: string;
  decision: ApprovalDecisionValue | 'timed_out' | 'policy_allow' | 'policy_reject';
  reason?: string;
  approver?: string;
  decidedAt: string;
  via: 'signal' | 'update' | 'policy' | 'timeout' | 'cli';
}

/** A message that arrived but was not applied (duplicate, late, unknown call, malformed). */
export interface IgnoredMessage {
  at: string;
  kind: 'approval' | 'userReply';
  reason: string;
  payload: string;
}

export interface ToolCallRecord {
  iteration: number;
  callId: string;
  tool: string;
  /** A short rendering of the arguments, e.g. "shell: ls -la". */
  summary: string;
  outcome: 'success' | 'error' | 'rejected' | 'waiting';
  durationMs?: number;
}

export interface PendingQuestion {
  callId: string;
  question: string;
  context?: string;
  askedAt: string;
}

/**
 * Everything a run knows, in one place. It is the continue-as-new payload, so it is versioned:
 * `migrateState` (run-state-migrations.ts) upgrades older shapes, which stay as test fixtures.
 */
export interface RunState {
  schemaVersion: 2;
  workflowId: string;
  input: {
    agent: string;
    task: string;
    user: string;
    maxIterations: number;
    toolApproval?: ToolApproval;
    approvalTimeoutSeconds: number;
    historyBudget: HistoryBudget;
  };
  agent: ResolvedAgent;
  phase: RunPhase;
  iteration: number;
  messages: ConversationMessage[];
  /**
   * Where the model activity's copy of the conversation stands: the activity keeps the messages under
   * `key` and the workflow only sends what was appended since `syncedCount` (see conversation-sync.ts).
   */
  conversation: { key: string; generation: number; syncedCount: number; tag?: string };
  usage: TokenUsage;
  tasks: Task[];
  savedSummaries: SavedSummary[];
  conversationSummary?: string;
  compactions: number;
  recentToolCalls: ToolCallRecord[];
  pendingApprovals: PendingApproval[];
  decisions: DecisionRecord[];
  ignored: IgnoredMessage[];
  pendingQuestion?: PendingQuestion;
  preferences: ToolPreferences;
  completion?: Completion;
  events: LifecycleEvent[];
  /** Continue-as-new links of this run so far, and the run it resumed, if any. */
  chain: { link: number; resumedFrom?: string };
  startedAt: string;
  lastError?: string;
  /** The API's own token count of the last prompt, and its size, to calibrate the next estimate. */
  lastPrompt?: { chars: number; tokens: number };
  /** The tool calls of the current turn while they are decided and run; survives continue-as-new. */
  turn?: TurnInProgress;
  /** "Always"/"never" choices made in this run that still have to be written to the person's store. */
  unsavedPreferences: PreferenceChange[];
  /**
   * Every "always"/"never" made in this run, the latest per tool. They hold for the rest of the run
   * even after a continue-as-new reloads the user's store, which lacks a choice saved under another
   * approver or not saved yet. Optional: checkpoints written before it existed have none.
   */
  choicesThisRun?: PreferenceChange[];
}

export type CallVerdict = { kind: 'run' } | { kind: 'control' } | { kind: 'pending' } | { kind: 'reject'; reason: string };

export interface TurnInProgress {
  iteration: number;
  calls: { id: string; name: string; input: unknown }[];
  /** What the model wrote alongside the calls, shown to the person deciding. */
  contextText?: string;
  verdicts: Record<string, CallVerdict>;
  results: Record<string, ToolResultBlock>;
}

/** Bounds on the lists kept in state, so neither the status query nor the checkpoint grows without end. */
export const StateLimits = {
  recentToolCalls: 10,
  decisions: 50,
  ignored: 20,
  events: 30,
} as const;

export function pushBounded<T>(list: T[], item: T, limit: number): void {
  list.push(item);
  if (list.length > limit) list.splice(0, list.length - limit);
}
