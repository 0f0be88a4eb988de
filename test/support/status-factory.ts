// A complete `status` query answer with plain defaults, for tests of code that renders one.
import type { RunStatus } from '../../src/contract/run-status';
import { taskProgress } from '../../src/core/machine/task-progress';

export function runStatus(overrides: Partial<RunStatus> = {}): RunStatus {
  const tasks = overrides.tasks ?? [];
  return {
    workflowId: 'run-1',
    agent: 'general',
    startedAs: 'general',
    task: 't',
    user: 'u',
    phase: 'running',
    iteration: 1,
    maxIterations: 10,
    modelTier: 'balanced',
    usage: { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
    recentToolCalls: [],
    pendingApprovals: [],
    pendingQuestions: [],
    children: [],
    lineage: { depth: 0 },
    completions: [],
    followUps: false,
    tasks,
    progress: taskProgress(tasks),
    decisions: [],
    ignored: [],
    events: [],
    compactions: 0,
    continueAsNewLinks: 0,
    sandboxed: true,
    signedDecisions: false,
    warnings: [],
    ...overrides,
  };
}
