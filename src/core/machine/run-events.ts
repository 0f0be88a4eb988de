import type { ApprovalDecision } from '../../contract/approval-decision';
import type { PreferenceRule } from '../approvals/preference-rules';
import type { ShellAnalysis } from '../../contract/shell-analysis';
import type { ConversationMessage, TokenUsage } from '../../contract/messages';
import type { OutputCheck } from '../../contract/output-check';
import type { ToolResult } from '../../contract/tool-result';
import type { GuardrailResult, HandlerVerdict } from './on-guardrails';
import type { ChildOutcome } from './on-team';
import type { OutcomeUnknownReason } from './on-tool';
import type { ChildWaiting } from '../../contract/run-records';
import type { ResolvedAgent } from '../../contract/resolved-agent';
import type { PermissionMode } from '../../contract/permission-mode';
import type { ModelPrice } from '../cost/usage-cost';

/**
 * Everything that can happen to a run, as data. The workflow turns each activity result, message
 * and timer into one of these and hands it to `transition`; nothing else changes the run's state.
 */
export type RunEvent =
  /** The workflow set the run up (a new run, or the next link of one). */
  | { type: 'started' }
  /**
   * `agentctl resume`: this run continues the state of an ended run `from`, under its own workflow id
   * and conversation; `moreIterations` is the budget asked for past the iterations already used.
   */
  | { type: 'resumed'; from: string; workflowId: string; conversationKey: string; moreIterations?: number }
  /** The workflow is about to call the model (a new iteration, or another attempt of the current one). */
  | { type: 'model_call_started' }
  | {
      type: 'model_replied';
      message: ConversationMessage;
      usage: TokenUsage;
      /** The worker's price of the model that answered, and whether it may publish the cost (reply-cost.ts; the machine ignores both). */
      price?: ModelPrice;
      costAttribute?: false;
      promptChars: number;
      storedCount: number;
      storedTag: string;
      /** The API's stop reason (`pause_turn`: it paused a long server tool turn, to be continued). */
      stopReason?: string | null;
      /** The call continued a paused turn: `message` is the whole turn and replaces the last message. */
      continued?: true;
      /** The execution started before paused turns were continued as they are (see patches.ts): "Continue." is sent instead. */
      pauseNudge?: true;
      /** The worker's reading of each call, by tool_use id (shell commands, parsed). */
      analyses?: Record<string, ShellAnalysis>;
      /** The worker's check of each completion call's `output` against the run's schema, by tool_use id. */
      outputChecks?: Record<string, OutputCheck>;
      /** Nexus tool calls whose arguments do not fit the tool's schema: each one's error result, by tool_use id (patch nexusArgumentChecks). */
      argumentProblems?: Record<string, string>;
    }
  /** The activity could not reach the model, or the model refused; `retryable` says which. */
  | { type: 'model_failed'; retryable: boolean; errorType: string; message: string; retryAfterMs?: number }
  /** The activity's copy of the conversation was gone; everything is sent again next time. */
  | { type: 'conversation_resent' }
  | { type: 'compaction_started' }
  /** Older turns were summarized (`summary`), or only oversized outputs were cut (no summary). */
  | { type: 'compacted'; summary?: string; usage?: TokenUsage; split?: number; estimate: number; fit: boolean }
  | { type: 'tool_started'; callId: string }
  | {
      type: 'tool_finished';
      callId: string;
      result: ToolResult;
      durationMs: number;
      /** The execution started before a tool's `shouldContinue: false` could end the run (see patches.ts): it is ignored. */
      legacy?: boolean;
    }
  /** A call that must not run twice stopped without an answer: it may or may not have taken effect. */
  | { type: 'tool_outcome_unknown'; callId: string; cause: string; durationMs: number; reason?: OutcomeUnknownReason }
  | {
      type: 'decision';
      decision: ApprovalDecision;
      via: 'signal' | 'update';
      verified: boolean;
      /** Set when replaying a history from before choices were scoped (see patches.ts). */
      toolWide?: boolean;
      /** The execution started before the approval-channel-v2 patch (see SigningEnv.legacy). */
      legacy?: boolean;
      /** For an approval with edited arguments: the worker's analysis of the edited call. */
      analysis?: ShellAnalysis;
    }
  /** Decisions on several parked calls at once (update `decideApprovals`), checked beforehand to apply all or none. */
  | { type: 'decisions'; decisions: { decision: ApprovalDecision; analysis?: ShellAnalysis }[]; via: 'update'; verified: boolean; toolWide?: boolean; legacy?: boolean }
  /** The run's permission mode was switched (update `setMode`). */
  | { type: 'mode_set'; mode: PermissionMode; by?: string; reason?: string }
  | { type: 'reply'; text: string; via: 'signal' | 'update' }
  /** Signed payloads this run just applied (patch signedOnce): each is accepted once, until it expires. */
  | { type: 'signatures_accepted'; signed: { signature: string; expiresAt: string }[] }
  /** A message that could not be applied; recorded so the sender can see why. */
  | { type: 'ignored'; kind: string; reason: string; payload: string }
  /** Time moved on: deadlines (approvals, questions, a model retry) are checked against `now`. */
  | { type: 'time_passed' }
  /** An approver raised the budget (update `raiseBudget`, checked by the handler and again by the loop). */
  | { type: 'budget_raised'; maxUsd?: number; maxTokens?: number; by?: string }
  | { type: 'preferences_saved'; count: number }
  | { type: 'preferences_not_saved'; count: number; error: string }
  /** A new link reloaded the person's choices (someone may have changed them meanwhile). */
  | { type: 'preferences_reloaded'; stored: PreferenceRule[]; approverKeys?: Record<string, string> }
  | { type: 'failed'; errorType: string; message: string }
  /** The run was cancelled; whatever else happens in the turn no longer counts. */
  | { type: 'cancelled' }
  /** A `delegate_task` call's sub-agent run was started, and how it ended. */
  | { type: 'child_started'; callId: string; workflowId: string }
  | { type: 'child_finished'; callId: string; outcome: ChildOutcome | { error: string }; durationMs: number }
  /**
   * This sub-agent's run could not tell its parent what it waits for (the signal failed: the parent
   * ended, or never existed). Its approvals and questions may not show at the parent.
   */
  | { type: 'parent_unreachable'; parent: string; error: string }
  /** A sub-agent's run told this one what it waits for (signal `childStatus`). */
  | { type: 'child_waiting'; workflowId: string; waiting: ChildWaiting }
  /** A `handoff` call: the other agent's definition, or why it could not be had. */
  | { type: 'handed_off'; callId: string; agent: ResolvedAgent | { error: string } }
  | { type: 'guardrails_checked'; on: 'input' | 'output' | 'tool'; results: GuardrailResult[] }
  | { type: 'calls_judged'; verdicts: HandlerVerdict[]; failure?: string }
  /**
   * A follow-up message for a thread (signal `userMessage`, update `sendMessage`); with `steer`, a run
   * that is not a thread takes it too, as a message for its next model request (on-steer.ts).
   */
  | { type: 'user_message'; text: string; sender?: string; steer?: boolean }
  | { type: 'close_requested' }
  /**
   * The workflow is free to take its next step: the transition says which (its `effects`) and marks
   * what that step starts (a model call, a compaction, each tool call and sub-agent run) in the same pass.
   */
  | { type: 'step_wanted' };

export type RunEventType = RunEvent['type'];
