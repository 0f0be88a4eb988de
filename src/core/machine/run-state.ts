import { z } from 'zod';
import { RunPhaseSchema, TokenUsageSchema, DecisionRecordSchema, IgnoredMessageSchema, ToolCallRecordSchema, PendingQuestionSchema, ChildWaitingSchema } from '../../contract/run-records';
import { ResolvedAgentSchema } from '../../contract/resolved-agent';
import { LifecycleEventSchema } from '../../contract/lifecycle-event';
import { ToolApprovalSchema } from '../../contract/approval-rules';
import { PreferenceRuleSchema } from '../approvals/preference-rules';
import { ShellAnalysisSchema } from '../../contract/shell-analysis';
import { CompletionSchema, SavedSummarySchema, TaskSchema } from '../../contract/control-tools';
import { ConversationMessageSchema, ToolResultBlockSchema } from '../../contract/conversation-ref';
import { JsonSchemaObjectSchema, OutputCheckSchema } from '../../contract/output-check';
import { ToolPermissionSchema } from '../../contract/tool-permission';
import { PermissionModeSchema } from '../../contract/permission-mode';
import { EffortSchema } from '../../contract/model-options';

/**
 * Everything a run knows, as one zod schema: the type is derived from it, a checkpoint handed to the
 * next link (continue-as-new) or to a resumed run is validated with it, and every earlier shape is
 * migrated to it (see migrations/). Only the transition functions in this folder change it.
 */

// The contract's records (the status carries them) and the agent the worker resolves live in
// src/contract; they are re-exported here for the machine's own files.
export { RunPhaseSchema, TokenUsageSchema, DecisionRecordSchema, IgnoredMessageSchema, ToolCallRecordSchema, PendingQuestionSchema, ChildWaitingSchema } from '../../contract/run-records';
export type { RunPhase, DecisionRecord, IgnoredMessage, ToolCallRecord, PendingQuestion, ChildWaiting } from '../../contract/run-records';
export { ResolvedToolSchema, ResolvedAgentSchema, type ResolvedTool, type ResolvedAgent } from '../../contract/resolved-agent';

/** The run's own settings, fixed at start (agent defaults applied). */
export const RunSettingsSchema = z.object({
  agent: z.string(),
  task: z.string(),
  user: z.string(),
  maxIterations: z.number().int().positive(),
  toolApproval: ToolApprovalSchema.optional(),
  approvalTimeoutSeconds: z.number().positive(),
  historyBudget: z.object({ maxEvents: z.number().int(), maxBytes: z.number().int() }),
  /** Who may decide this run's parked calls (narrows the agent's list). */
  approvers: z.array(z.string()).optional(),
  /** Lets this run's tool commands reach the network (the agent's setting otherwise). */
  network: z.boolean().optional(),
  /** The longest wait between two attempts of a model call while the API is unavailable. */
  modelRetryMaxSeconds: z.number().positive().default(300),
  /** The JSON Schema the completion's `output` must match (the run's own; the agent's lives on the worker). */
  outputSchema: JsonSchemaObjectSchema.optional(),
  /** Sub-agents this run may delegate to besides the agent's own. */
  subAgents: z.array(z.string()).default([]),
  /** The run stays open after each completion for follow-up messages (a thread). */
  followUps: z.boolean().default(false),
  /** How long a thread waits for a follow-up before it closes. */
  idleTimeoutSeconds: z.number().positive().default(7 * 24 * 60 * 60),
  /** The run's own model id and effort, overriding the agent's (state version 5). */
  model: z.string().optional(),
  effort: EffortSchema.optional(),
});
export type RunSettings = z.infer<typeof RunSettingsSchema>;

/**
 * Where one tool call of the current turn is in the approval pipeline: guardrail → policy → handler →
 * person → run or refused; control tools are the workflow's own stage. One union, so a call cannot be,
 * say, waiting for a person and started at once. Each stage carries what only it needs.
 */
export const CallStageSchema = z.discriminatedUnion('kind', [
  /** New: the agent's tool guardrails look at it before the policy does (if any cover it). */
  z.object({ kind: z.literal('guardrail') }),
  /** The tool guardrails passed it (or none cover it): the approval policy judges it next. */
  z.object({ kind: z.literal('policy') }),
  /** The policy would park it: the agent's approval handler decides first. */
  z.object({ kind: z.literal('handler'), reason: z.string() }),
  /** Parked for a person since `requestedAt`. */
  z.object({ kind: z.literal('person'), requestedAt: z.string(), reason: z.string() }),
  /**
   * Let run. `permission` says who let it and whether it may write; checkpoints from before it was
   * kept lack it, and `permissionOf` (call-records.ts) then reads the run's decisions. `started`: its
   * tool activity was started and has not reported back.
   */
  z.object({ kind: z.literal('run'), permission: ToolPermissionSchema.optional(), started: z.boolean() }),
  /** A control tool, handled by the workflow; `started`: a sub-agent's run (delegate_task) is under way. */
  z.object({ kind: z.literal('control'), started: z.boolean() }),
  /** Refused (by a guardrail, the policy, the handler, a person, a timeout, or as an unknown tool). */
  z.object({ kind: z.literal('refused'), reason: z.string() }),
]);
export type CallStage = z.infer<typeof CallStageSchema>;

export const TurnCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
  /** The worker's reading of the call (for `shell`, the parsed command), used by the rules. */
  analysis: ShellAnalysisSchema.optional(),
  /** For a completion call of a run with an output schema: whether its `output` matches. */
  outputCheck: OutputCheckSchema.optional(),
  stage: CallStageSchema,
  /** Set once the call has its result; the turn ends when every call has one. */
  result: ToolResultBlockSchema.optional(),
  /** A person changed the call's arguments before approving it: who, and what the model asked for. */
  edited: z.object({ by: z.string().optional(), original: z.unknown() }).optional(),
  /** For `delegate_task`: the sub-agent's run. */
  child: z.object({ workflowId: z.string() }).optional(),
});
export type TurnCall = z.infer<typeof TurnCallSchema>;

export const TurnSchema = z.object({
  iteration: z.number().int(),
  calls: z.array(TurnCallSchema),
  /** What the model wrote alongside the calls, shown to the person deciding. */
  contextText: z.string().optional(),
});
export type Turn = z.infer<typeof TurnSchema>;

/** A model call that has been asked for and has not answered yet (retries included). */
export const ModelCallSchema = z.object({
  attempt: z.number().int().min(1),
  /** Set while the API is unavailable: why, and when the next attempt starts. */
  lastError: z.string().optional(),
  nextAttemptAt: z.string().optional(),
});

/** How the run ended, once it has. */
export const OutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('completed') }),
  z.object({ kind: z.literal('max_iterations') }),
  z.object({ kind: z.literal('guardrail_tripped'), guardrail: z.string(), reason: z.string(), step: z.string() }),
  z.object({ kind: z.literal('failed'), type: z.string(), message: z.string() }),
]);

export const RunStateSchema = z.object({
  schemaVersion: z.literal(6),
  workflowId: z.string(),
  input: RunSettingsSchema,
  agent: ResolvedAgentSchema,
  phase: RunPhaseSchema,
  iteration: z.number().int().min(0),
  messages: z.array(ConversationMessageSchema),
  /** Where the model activity's copy of the conversation stands (see conversation-sync.ts). */
  conversation: z.object({ key: z.string(), generation: z.number().int(), syncedCount: z.number().int(), tag: z.string().optional() }),
  usage: TokenUsageSchema,
  tasks: z.array(TaskSchema),
  savedSummaries: z.array(SavedSummarySchema),
  conversationSummary: z.string().optional(),
  compactions: z.number().int(),
  /** A summarizer call is in flight. */
  compacting: z.boolean().default(false),
  /** The estimate right after the last compaction, so a still-large prompt is not summarized every turn. */
  compactedAt: z.object({ iteration: z.number().int(), estimate: z.number() }).optional(),
  recentToolCalls: z.array(ToolCallRecordSchema),
  turn: TurnSchema.optional(),
  modelCall: ModelCallSchema.optional(),
  decisions: z.array(DecisionRecordSchema),
  ignored: z.array(IgnoredMessageSchema),
  pendingQuestion: PendingQuestionSchema.optional(),
  /** The person's remembered choices plus those made in this run. */
  preferences: z.array(PreferenceRuleSchema),
  /** Choices made in this run, the latest per scope; they hold for the rest of the run. */
  choicesThisRun: z.array(PreferenceRuleSchema),
  /** Choices made in this run that still have to be written to the person's store. */
  unsavedPreferences: z.array(PreferenceRuleSchema),
  /** The approver registry (name → Ed25519 public key, hex) the worker had when this link started. */
  approverKeys: z.record(z.string(), z.string()).optional(),
  completion: CompletionSchema.optional(),
  /** The typed result the completion carried, once it matched the run's output schema. */
  output: z.unknown().optional(),
  outcome: OutcomeSchema.optional(),
  events: z.array(LifecycleEventSchema),
  chain: z.object({ link: z.number().int(), resumedFrom: z.string().optional() }),
  startedAt: z.string(),
  lastError: z.string().optional(),
  /** Problems the run went on after (a choice that could not be saved, ...), newest last. */
  warnings: z.array(z.string()).default([]),
  lastPrompt: z.object({ chars: z.number(), tokens: z.number() }).optional(),
  /**
   * The text of the latest model reply that had any (its last 4,000 characters, `chars` in all), with
   * its iteration: a live follower prints from it the end no heartbeat carried.
   */
  lastReplyText: z.object({ iteration: z.number().int(), text: z.string(), chars: z.number().int() }).optional(),
  /** The permission mode in force (run input, else the agent's default; `setMode` switches it). */
  mode: PermissionModeSchema.default('default'),
  /** Where this run sits in a tree of sub-agents (depth 0: a run a person started). */
  lineage: z.object({ depth: z.number().int().min(0), parentWorkflowId: z.string().optional(), rootWorkflowId: z.string().optional() }).default({ depth: 0 }),
  /** What each running sub-agent waits for, by its workflow id. */
  childWaiting: z.record(z.string(), ChildWaitingSchema).default({}),
  /** Guardrails already run for the task and for the current completion. */
  guardrailsChecked: z.object({ input: z.boolean(), output: z.boolean() }).default({ input: false, output: false }),
  /** A thread (input `followUps`): every completion so far, and since when it waits for the next message. */
  thread: z
    .object({
      completions: z.array(CompletionSchema),
      idleSince: z.string().optional(),
      /** The iteration the current message started at; the cap counts from here. */
      iterationBase: z.number().int(),
      /** Messages that arrived while the agent was working, delivered when it would go idle. */
      inbox: z.array(z.string()),
      /** Who sent each inbox message, in step with `inbox` ('' when the sender gave no name). */
      inboxFrom: z.array(z.string()).optional(),
      /** Who sent the message the current turn works on; the audit log names them on its calls. */
      requestedBy: z.string().optional(),
      closeRequested: z.boolean(),
    })
    .default({ completions: [], iterationBase: 0, inbox: [], closeRequested: false }),
});
export type RunState = z.infer<typeof RunStateSchema>;
export type RunOutcome = z.infer<typeof OutcomeSchema>;

/** Bounds on the lists kept in state, so neither the status query nor the checkpoint grows without end. */
export const StateLimits = {
  recentToolCalls: 10,
  decisions: 50,
  ignored: 20,
  events: 30,
  warnings: 10,
  savedSummaries: 20,
  choicesThisRun: 100,
} as const;

export function pushBounded<T>(list: T[], item: T, limit: number): void {
  list.push(item);
  if (list.length > limit) list.splice(0, list.length - limit);
}
