import { ContextBudgetSchema } from '../../../contract/agent-definition';
import type { ConversationMessage, TokenUsage } from '../../../contract/messages';
import type { ModelTier } from '../../../contract/model-tiers';
import type { ToolScope } from '../../../contract/tool-scope';
import { DEFAULT_APPROVAL_TIMEOUT_SECONDS } from '../../../contract/run-input';
import { DEFAULT_HISTORY_BUDGET } from '../../history-budget';
import type { RunStateV2 } from './run-state-v2';

/**
 * Version 1 of the checkpoint: the first release's continue-as-new payload, before approvals, tasks
 * and compaction existed. Runs that continued as new under it must still resume, so it stays here
 * and as a test fixture (test/fixtures/run-state-v1.json).
 */
export interface RunStateV1 {
  schemaVersion: 1;
  workflowId: string;
  agent: { name: string; description: string; modelTier: ModelTier; maxIterations: number; tools: Record<string, ToolScope>; context?: unknown };
  task: string;
  maxIterations: number;
  iteration: number;
  messages: ConversationMessage[];
  usage: TokenUsage;
}

export function v1ToV2(v1: RunStateV1, now: string): RunStateV2 {
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
    startedAt: now,
    unsavedPreferences: [],
  };
}
