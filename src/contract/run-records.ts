import { z } from 'zod';
import { DecisionSchema, type Decision } from './decision';
import { PendingBudgetSchema } from './budget';

/**
 * The records a run keeps and its status shows: the phase, token usage, decisions, ignored messages,
 * recent tool calls, the open question, and what a sub-agent waits for. They are part of the
 * checkpoint too, so a change here is a change of the checkpoint schema (bump its version).
 */

export const RunPhaseSchema = z.enum([
  'starting',
  'running',
  'compacting',
  'waiting_for_model',
  'waiting_approval',
  'waiting_input',
  'waiting_budget',
  'idle',
  'completed',
  'max_iterations',
  'guardrail_tripped',
  'budget_exhausted',
  'failed',
  'cancelled',
]);
export type RunPhase = z.infer<typeof RunPhaseSchema>;

export const TokenUsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheReadInputTokens: z.number(),
  cacheCreationInputTokens: z.number(),
  /** Of outputTokens, those spent thinking (state version 5). */
  thinkingTokens: z.number().optional(),
  /** Server tool requests by the API's name, e.g. `web_search_requests` (state version 5). */
  serverToolUse: z.record(z.string(), z.number()).optional(),
});

/** The run's decisions are the contract's one Decision record (src/contract/decision.ts). */
export const DecisionRecordSchema = DecisionSchema;
export type DecisionRecord = Decision;

export const IgnoredMessageSchema = z.object({ at: z.string(), kind: z.string(), reason: z.string(), payload: z.string() });
export type IgnoredMessage = z.infer<typeof IgnoredMessageSchema>;

export const ToolCallRecordSchema = z.object({
  iteration: z.number(),
  callId: z.string(),
  tool: z.string(),
  summary: z.string(),
  outcome: z.enum(['success', 'error', 'rejected', 'waiting', 'running', 'unknown']),
  durationMs: z.number().optional(),
  /** `api`: a server tool the Messages API ran itself (web search, ...); the worker ran nothing (state version 5). */
  ranBy: z.literal('api').optional(),
});
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;

export const PendingQuestionSchema = z.object({ callId: z.string(), question: z.string(), context: z.string().optional(), askedAt: z.string() });
export type PendingQuestion = z.infer<typeof PendingQuestionSchema>;

/** What a sub-agent's run waits for, as it last told its parent (its own sub-agents' included). */
export const ChildWaitingSchema = z.object({
  approvals: z.array(
    z.object({
      callId: z.string(),
      tool: z.string(),
      input: z.unknown(),
      requestedAt: z.string(),
      iteration: z.number(),
      reason: z.string(),
      context: z.string().optional(),
      workflowId: z.string(),
      commands: z.array(z.string()).optional(),
      approvers: z.array(z.string()).optional(),
    }),
  ),
  questions: z.array(z.object({ callId: z.string(), question: z.string(), context: z.string().optional(), askedAt: z.string(), workflowId: z.string() })),
  /** Issue 34: the run below waits for a budget raise (state version 9); absent otherwise. */
  budget: PendingBudgetSchema.optional(),
});
export type ChildWaiting = z.infer<typeof ChildWaitingSchema>;
