import { ApplicationFailure, patched, workflowInfo } from '@temporalio/workflow';
import { z } from 'zod';
import { commandPatternsOf } from '../core/approvals/approval-policy';
import { runRulesCeilingProblem } from '../core/approvals/run-rules-ceiling';
import { workflowIdProblem } from '../core/approvals/signatures/workflow-id';
import { toRules } from '../core/approvals/preference-messages';
import type { PreferenceRule } from '../core/approvals/preference-rules';
import { emptyUsage, type ConversationMessage } from '../contract/messages';
import { describeZodError } from '../contract/describe-zod-error';
import { FailureType } from '../contract/errors';
import { setup } from './activity-stubs';
import { renderCarriedContext } from '../core/machine/carried-context';
import { DEFAULT_HISTORY_BUDGET } from './history-budget';
import { Patches } from './compat/patches';
import { adoptRequester } from './run-requester';
import { migrateState } from './compat/migrations/migrate-state';
import { agentV2ToV3, type RunStateV2 } from './compat/migrations/run-state-v2';
import { ResolvedAgentSchema, type ResolvedAgent } from '../contract/resolved-agent';
import { type RunState } from '../core/machine/run-state';
import { learnNexusTools } from './nexus-tool-call';
import { RunBudgetSchema } from '../core/machine/state/budget';
import {
  AgentRunInputSchema,
  DEFAULT_APPROVAL_TIMEOUT_SECONDS,
  DEFAULT_IDLE_TIMEOUT_SECONDS,
  DEFAULT_MODEL_RETRY_MAX_SECONDS,
  type ParsedRunInput,
} from '../contract/run-input';

/**
 * Validates the input. A bad input throws a non-retryable ApplicationFailure, which fails the run
 * at once; a plain Error would fail only the workflow task, which Temporal retries forever.
 */
export function parseInput(raw: unknown): ParsedRunInput {
  // Checked by the workflow itself, so a plain Temporal client that skips startRun's check is refused too.
  const idProblem = workflowIdProblem(workflowInfo().workflowId);
  if (idProblem) {
    throw ApplicationFailure.create({ type: FailureType.InvalidRunInput, nonRetryable: true, message: `Refused to run: ${idProblem}. Start it again under another id.` });
  }
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

/**
 * What `resolveAgent` and `loadPreferences` report about the worker itself, besides the agent or the
 * person. Parsed, not cast: an activity result crosses a process boundary (and old histories replay
 * old results), so its shape is checked where it enters the workflow.
 */
const WorkerFactsSchema = z.object({
  sandboxed: z.boolean().optional(),
  approverKeys: z.record(z.string(), z.string()).optional(),
});
export type WorkerFacts = z.infer<typeof WorkerFactsSchema>;

/**
 * The agent as `resolveAgent` returned it. Histories of the first release carry its older shape (tools
 * as bare scopes, no workspace or network settings); they are read the way a version-2 checkpoint is.
 */
function resolvedAgentOf(raw: unknown): ResolvedAgent {
  const tools = (raw as { tools?: Record<string, unknown> }).tools ?? {};
  const legacy = Object.values(tools).some((t) => typeof t === 'string');
  return ResolvedAgentSchema.parse(legacy ? agentV2ToV3(raw as RunStateV2['agent']) : raw);
}

/** Preferences as `loadPreferences` returned them: rules now, the two tool lists in the first release. */
export function preferencesOf(raw: unknown): { rules: PreferenceRule[]; facts: WorkerFacts } {
  const value = (raw ?? {}) as { rules?: unknown[]; alwaysApproved?: string[]; alwaysRejected?: string[] } & WorkerFacts;
  if (Array.isArray(value.rules)) return { rules: toRules(value.rules), facts: WorkerFactsSchema.parse(value) };
  const legacy = [
    ...(value.alwaysApproved ?? []).map((tool) => ({ tool, preference: 'always' })),
    ...(value.alwaysRejected ?? []).map((tool) => ({ tool, preference: 'never' })),
  ];
  return { rules: toRules(legacy), facts: {} };
}

/** Refuses a history budget smaller than what the run must carry into every link: it would hand over forever. */
function checkBudgetFits(state: RunState): void {
  const size = workflowInfo().historySize;
  if (size > 0 && size >= state.input.historyBudget.maxBytes / 2) {
    throw ApplicationFailure.create({
      type: FailureType.InvalidRunInput,
      nonRetryable: true,
      message:
        `historyBudget.maxBytes (${state.input.historyBudget.maxBytes}) is too small for this run: its checkpoint alone takes ${size} bytes of history. ` +
        'Raise historyBudget.maxBytes (at least twice the checkpoint) or leave it unset.',
    });
  }
}

/** The state of the next link of a run that continued as new, or of an ended run resumed (`resumedFrom`). */
export async function stateFromCheckpoint(input: ParsedRunInput): Promise<{ state: RunState; stored: PreferenceRule[]; facts: WorkerFacts }> {
  const state = migrateState(input.checkpoint, new Date().toISOString());
  checkBudgetFits(state);
  // A resumed run is reopened by the machine's `resumed` event; a next link only counts itself.
  if (!input.resumedFrom) state.chain.link += 1;
  // Issue 32: a fork or resume runs as the person who asked for it (checked with the registry just read).
  const requested = input.resumedFrom !== undefined && patched(Patches.forkRequester);
  const user = requested ? (input.requestedBy?.name ?? state.input.user) : state.input.user;
  // Someone may have changed their "always"/"never" choices while this run was going on.
  const preferences = await setup.loadPreferences({ user, agent: state.agent.name });
  learnNexusTools(preferences);
  const { rules, facts } = preferencesOf(preferences);
  if (requested) adoptRequester(state, input, facts.approverKeys);
  return { state, stored: rules, facts };
}

/**
 * The state of a new run. `ceiling` (patch approvalChannelII): with an approver registry, a run input
 * that would loosen its agent's rules or mode is refused, naming the setting (run-rules-ceiling.ts).
 */
export async function newRunState(input: ParsedRunInput, ceiling = false): Promise<RunState> {
  const patterns = commandPatternsOf(input.toolApproval);
  // Issue 34: only new executions ask for the budget, so a history from before replays the same call.
  const budgeted = patched(Patches.spendBudget);
  const resolved: unknown = await setup.resolveAgent({ agent: input.agent, commandPatterns: patterns, ...(budgeted ? { budget: input.budget, model: input.model } : {}) });
  const agent = resolvedAgentOf(resolved);
  learnNexusTools(resolved);
  const budget = budgeted ? RunBudgetSchema.optional().parse((resolved as { budget?: unknown }).budget) : undefined;
  const { approverKeys } = WorkerFactsSchema.parse(resolved);
  const loosens = ceiling && approverKeys !== undefined ? runRulesCeilingProblem(input, agent) : undefined;
  if (loosens) throw ApplicationFailure.create({ type: FailureType.InvalidRunInput, nonRetryable: true, message: `Refused to run: ${loosens}.` });
  const user = input.user ?? 'default';
  const { rules } = preferencesOf(await setup.loadPreferences({ user }));
  const workflowId = workflowInfo().workflowId;
  const resume = input.resume;
  const first: ConversationMessage = { role: 'user', content: resume ? `${input.task}\n\n${renderCarriedContext(resume)}` : input.task };
  return {
    schemaVersion: 9,
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
      approvers: input.approvers,
      network: input.network,
      modelRetryMaxSeconds: input.modelRetryMaxSeconds ?? DEFAULT_MODEL_RETRY_MAX_SECONDS,
      outputSchema: input.outputSchema,
      subAgents: input.subAgents ?? [],
      followUps: input.followUps ?? false,
      idleTimeoutSeconds: input.idleTimeoutSeconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS,
      model: input.model,
      effort: input.effort,
    },
    lineage: input.parent
      ? { depth: input.parent.depth, parentWorkflowId: input.parent.workflowId, rootWorkflowId: input.parent.rootWorkflowId }
      : { depth: 0, rootWorkflowId: workflowId },
    mode: input.mode ?? agent.mode ?? 'default',
    childWaiting: {},
    guardrailsChecked: { input: false, output: false },
    thread: { completions: [], iterationBase: 0, inbox: [], closeRequested: false },
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
    compacting: false,
    recentToolCalls: [],
    decisions: [],
    ignored: [],
    preferences: rules,
    choicesThisRun: [],
    unsavedPreferences: [],
    approverKeys,
    acceptedSignatures: [],
    events: [],
    chain: { link: 0, resumedFrom: resume?.fromWorkflowId },
    startedAt: new Date().toISOString(),
    warnings: [],
    ...(budget ? { budget } : {}),
  };
}
