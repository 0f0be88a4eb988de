import { ApplicationFailure, workflowInfo } from '@temporalio/workflow';
import { emptyUsage } from '../conversation/messages';
import type { ConversationMessage } from '../conversation/messages';
import { FailureType } from '../errors';
import { describeZodError } from '../describe-zod-error';
import { AgentRunInputSchema, DEFAULT_APPROVAL_TIMEOUT_SECONDS, type ParsedRunInput } from './run-input';
import type { RunState } from './run-state';
import { DEFAULT_HISTORY_BUDGET } from './history-budget';
import { migrateState } from './run-state-migrations';
import { setup } from './activity-stubs';
import { renderCarriedContext } from './carried-context';
import { withChoice } from '../approvals/preference-messages';

/**
 * Validates the input. A bad input throws a non-retryable ApplicationFailure, which fails the run
 * at once; a plain Error would fail only the workflow task, which Temporal retries forever.
 */
export function parseInput(raw: unknown): ParsedRunInput {
  const parsed = AgentRunInputSchema.safeParse(raw);
  if (!parsed.success) {
    throw ApplicationFailure.create({
      type: FailureType.InvalidRunInput,
      nonRetryable: true,
      message: `Invalid agentRun input:\n${describeZodError(parsed.error)}\nExpected { agent: string, task: string, maxIterations?: number, ... }.`,
    });
  }
  return parsed.data;
}

/** The state of a new run, or of the next link of a run that continued as new. */
export async function initialState(input: ParsedRunInput): Promise<RunState> {
  if (input.checkpoint !== undefined) {
    const state = migrateState(input.checkpoint);
    state.chain.link += 1;
    // Someone may have changed their "always"/"never" choices while this run was going on; the
    // choices made in this run still hold, whether or not they went to this user's store.
    const stored = await setup.loadPreferences({ user: state.input.user });
    state.preferences = (state.choicesThisRun ?? []).reduce((prefs, c) => (c.preference === 'revoke' ? prefs : withChoice(prefs, c.tool, c.preference)), stored);
    return state;
  }
  const agent = await setup.resolveAgent({ agent: input.agent });
  const user = input.user ?? 'default';
  const preferences = await setup.loadPreferences({ user });
  const workflowId = workflowInfo().workflowId;
  const resume = input.resume;
  const first: ConversationMessage = {
    role: 'user',
    content: resume ? `${input.task}\n\n${renderCarriedContext(resume)}` : input.task,
  };
  return {
    schemaVersion: 2,
    workflowId,
    input: {
      agent: agent.name,
      task: input.task,
      user,
      maxIterations: input.maxIterations ?? agent.maxIterations,
      toolApproval: input.toolApproval,
      approvalTimeoutSeconds: input.approvalTimeoutSeconds ?? DEFAULT_APPROVAL_TIMEOUT_SECONDS,
      historyBudget: {
        maxEvents: input.historyBudget?.maxEvents ?? DEFAULT_HISTORY_BUDGET.maxEvents,
        maxBytes: input.historyBudget?.maxBytes ?? DEFAULT_HISTORY_BUDGET.maxBytes,
      },
    },
    agent,
    phase: 'starting',
    iteration: 0,
    messages: [first],
    conversation: { key: `${workflowId}/${workflowInfo().runId}`, generation: 0, syncedCount: 0 },
    usage: resume?.usage ?? emptyUsage(),
    tasks: resume?.tasks ?? [],
    savedSummaries: resume?.savedSummaries ?? [],
    conversationSummary: resume?.conversationSummary,
    compactions: 0,
    recentToolCalls: [],
    pendingApprovals: [],
    decisions: [],
    ignored: [],
    preferences,
    events: [],
    chain: { link: 0, resumedFrom: resume?.fromWorkflowId },
    startedAt: new Date().toISOString(),
    unsavedPreferences: [],
    choicesThisRun: [],
  };
}
