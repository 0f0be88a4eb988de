import { ApplicationFailure } from '@temporalio/workflow';
import { ContextBudgetSchema } from '../agents/agent-definition';
import type { ResolvedAgent } from '../agents/resolved-agent';
import type { ConversationMessage, TokenUsage } from '../conversation/messages';
import { FailureType } from '../errors';
import { DEFAULT_APPROVAL_TIMEOUT_SECONDS } from './run-input';
import type { RunState } from './run-state';
import { DEFAULT_HISTORY_BUDGET } from './history-budget';

/**
 * Version 1 of the checkpoint: the first release's continue-as-new payload, before approvals, tasks
 * and compaction existed. Runs that continued as new under it must still resume, so it stays here
 * and as a test fixture (test/fixtures/run-state-v1.json).
 */
export interface RunStateV1 {
  schemaVersion: 1;
  workflowId: string;
  /** The agent as version 1 resolved it: no context budget yet (compaction came later). */
  agent: Omit<ResolvedAgent, 'context'> & { context?: ResolvedAgent['context'] };
  task: string;
  maxIterations: number;
  iteration: number;
  messages: ConversationMessage[];
  usage: TokenUsage;
}

/** Upgrades any known checkpoint shape to the current `RunState`. */
export function migrateState(raw: unknown): RunState {
  const version = (raw as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version === 2) return raw as RunState;
  if (version === 1) return fromV1(raw as RunStateV1);
  throw ApplicationFailure.create({
    type: FailureType.UnsupportedStateVersion,
    nonRetryable: true,
    message: `Cannot continue from a checkpoint with schemaVersion ${String(version)}; this worker knows versions 1 and 2.`,
  });
}

function fromV1(v1: RunStateV1): RunState {
  return {
    schemaVersion: 2,
    workflowId: v1.workflowId,
    input: {
      agent: v1.agent.name,
      task: v1.task,
      user: 'default',
      maxIterations: v1.maxIterations,
      approvalTimeoutSeconds: DEFAULT_APPROVAL_TIMEOUT_SECONDS,
      historyBudget: DEFAULT_HISTORY_BUDGET,
    },
    // Without a budget of its own the agent gets the defaults every agent definition gets.
    agent: { ...v1.agent, context: v1.agent.context ?? ContextBudgetSchema.parse({}) },
    phase: 'running',
    iteration: v1.iteration,
    messages: v1.messages,
    // Version 1 sent the whole conversation every turn; start a fresh store key so nothing stale is used.
    conversation: { key: `${v1.workflowId}:v1-migrated`, generation: 0, syncedCount: 0 },
    usage: v1.usage,
    tasks: [],
    savedSummaries: [],
    compactions: 0,
    recentToolCalls: [],
    pendingApprovals: [],
    decisions: [],
    ignored: [],
    preferences: { alwaysApproved: [], alwaysRejected: [] },
    events: [],
    chain: { link: 1 },
    startedAt: new Date().toISOString(),
    unsavedPreferences: [],
  };
}
