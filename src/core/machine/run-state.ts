import { z } from 'zod';
import { CoreSliceSchema } from './state/core';
import { TurnSliceSchema } from './state/turn';
import { ApprovalsSliceSchema } from './state/approvals';
import { TeamSliceSchema } from './state/team';
import { ThreadSliceSchema } from './state/thread';
import { CompactionSliceSchema } from './state/compaction';
import { TelemetrySliceSchema } from './state/telemetry';
import { BudgetSliceSchema } from './state/budget';

/**
 * Everything a run knows, as one zod schema: the type is derived from it, a checkpoint handed to the
 * next link (continue-as-new) or to a resumed run is validated with it, and every earlier shape is
 * migrated to it (see migrations/). Only the transition functions in this folder change it.
 *
 * It is composed of slices (state/*.ts), each with the schemas only it uses and a header naming the
 * handlers that write it: core, turn, approvals, team, thread, compaction, telemetry, budget. The checkpoint
 * itself stays one flat object, so the slices are a way to read the code, not a change of shape.
 */

// The contract's records (the status carries them) and the agent the worker resolves live in
// src/contract; they are re-exported here for the machine's own files.
export { RunPhaseSchema, TokenUsageSchema, DecisionRecordSchema, IgnoredMessageSchema, ToolCallRecordSchema, PendingQuestionSchema, ChildWaitingSchema } from '../../contract/run-records';
export type { RunPhase, DecisionRecord, IgnoredMessage, ToolCallRecord, PendingQuestion, ChildWaiting } from '../../contract/run-records';
export { ResolvedToolSchema, ResolvedAgentSchema, type ResolvedTool, type ResolvedAgent } from '../../contract/resolved-agent';
export { RunSettingsSchema, OutcomeSchema, type RunSettings, type RunOutcome } from './state/core';
export { ModelCallSchema, CallStageSchema, TurnCallSchema, TurnSchema, type CallStage, type TurnCall, type Turn } from './state/turn';


/** Every field of the checkpoint, slice by slice; the version belongs to the whole, not to a slice. */
const stateFields = {
  schemaVersion: z.literal(9),
  ...CoreSliceSchema.shape,
  ...TurnSliceSchema.shape,
  ...ApprovalsSliceSchema.shape,
  ...TeamSliceSchema.shape,
  ...ThreadSliceSchema.shape,
  ...CompactionSliceSchema.shape,
  ...TelemetrySliceSchema.shape,
  ...BudgetSliceSchema.shape,
};
type StateField = keyof typeof stateFields;

/**
 * The order in which checkpoints list their fields, as they always have (the slices interleave in
 * it). Parsing emits keys in this order and the JSON Schema test compares the committed file as
 * text, so regrouping the fields into slices must not reorder them. A field added to a slice later
 * and not listed here goes after these, in slice order.
 */
const CHECKPOINT_FIELD_ORDER = [
  'schemaVersion', 'workflowId', 'input', 'agent', 'phase', 'iteration', 'messages', 'conversation', 'usage', 'tasks',
  'savedSummaries', 'conversationSummary', 'compactions', 'compacting', 'compactedAt', 'recentToolCalls', 'turn', 'modelCall',
  'decisions', 'ignored', 'pendingQuestion', 'preferences', 'choicesThisRun', 'unsavedPreferences', 'approverKeys',
  'completion', 'output', 'outcome', 'events', 'chain', 'startedAt', 'lastError', 'warnings', 'lastPrompt', 'lastReplyText',
  'mode', 'lineage', 'childWaiting', 'guardrailsChecked', 'thread',
] as const satisfies readonly StateField[];

/** `shape` with its keys in `order` first, then the rest in their own order; the fields are the same. */
function inFieldOrder<Shape extends z.ZodRawShape>(shape: Shape, order: readonly (keyof Shape)[]): Shape {
  const keys = [...new Set([...order, ...Object.keys(shape)])];
  // A reordering of the same keys, so the object has exactly `Shape`'s fields.
  return Object.fromEntries(keys.map((key) => [key, shape[key]])) as Shape;
}

export const RunStateSchema = z.object(inFieldOrder(stateFields, CHECKPOINT_FIELD_ORDER));
export type RunState = z.infer<typeof RunStateSchema>;

/** Bounds on the lists kept in state, so neither the status query nor the checkpoint grows without end. */
export const StateLimits = {
  recentToolCalls: 10,
  decisions: 50,
  ignored: 20,
  events: 30,
  warnings: 10,
  savedSummaries: 20,
  choicesThisRun: 100,
  /**
   * Messages waiting in `thread.inbox` (a thread's follow-ups, or a working run's steering), and their
   * UTF-8 bytes with their senders' names (`inboxFrom`). One more is refused, saying so: a message may
   * be 100,000 characters, and the inbox travels in every checkpoint.
   */
  inbox: 20,
  inboxBytes: 256 * 1024,
  /**
   * A thread's completions (`thread.completions`, every one returned in its result), counted with the
   * messages still waiting for theirs, and their bytes: a follow-up past either is refused, and the
   * thread should be closed and a new one started.
   */
  threadCompletions: 100,
  threadCompletionBytes: 256 * 1024,
  /** The completions the status query returns (the latest ones; `completionCount` says how many there are). */
  statusCompletions: 20,
  /**
   * Signatures accepted and not yet expired (`acceptedSignatures`, at most a day each): one more is
   * refused, naming this limit, until the first expires. About 150 bytes each in the checkpoint.
   */
  acceptedSignatures: 500,
} as const;

export function pushBounded<T>(list: T[], item: T, limit: number): void {
  list.push(item);
  if (list.length > limit) list.splice(0, list.length - limit);
}
