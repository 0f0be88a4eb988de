import { z } from 'zod';
import { ShellAnalysisSchema } from '../../../contract/shell-analysis';
import { ToolResultBlockSchema } from '../../../contract/conversation-ref';
import { OutputCheckSchema } from '../../../contract/output-check';
import { ToolPermissionSchema } from '../../../contract/tool-permission';

/**
 * The turn slice: the loop's counter, the tool calls of the current turn with the stage each is at,
 * and the model call in flight. on-model counts the iteration, opens the turn and records the model
 * call's retries; classify, on-guardrails, on-decision and on-tool move its calls through their
 * stages; advance closes the turn; fork-state clears the model call.
 */

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
export type ModelCall = z.infer<typeof ModelCallSchema>;

export const TurnSliceSchema = z.object({
  iteration: z.number().int().min(0),
  turn: TurnSchema.optional(),
  modelCall: ModelCallSchema.optional(),
});
export type TurnSlice = z.infer<typeof TurnSliceSchema>;
