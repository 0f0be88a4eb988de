import { SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import type { TokenUsage } from '../../contract/messages';
import { TRACER_NAME } from './tracing';

/**
 * Spans for model and tool calls with the OpenTelemetry GenAI semantic conventions
 * (gen_ai.operation.name, gen_ai.request.model, gen_ai.usage.*, gen_ai.tool.name...), so GenAI-aware
 * backends show tokens and tools without configuration. Without a registered tracer provider
 * (tracing off) they cost nothing: the API hands out no-op spans.
 */
async function inSpan<T>(name: string, kind: SpanKind, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  return trace.getTracer(TRACER_NAME).startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}

export interface ModelCallFacts {
  model: string;
  maxTokens: number;
  /** What the call is for: an agent's turn, compaction's summary, or a guardrail / approval-handler judge. */
  purpose?: 'turn' | 'compaction' | 'judge';
  agent?: string;
  iteration?: number;
  workflowId?: string;
}

/** `chat <model>`: one model request, from the call to the last streamed event. */
export function inModelSpan<T>(facts: ModelCallFacts, fn: (span: Span) => Promise<T>): Promise<T> {
  return inSpan(`chat ${facts.model}`, SpanKind.CLIENT, {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'anthropic',
    'gen_ai.system': 'anthropic',
    'gen_ai.request.model': facts.model,
    'gen_ai.request.max_tokens': facts.maxTokens,
    'durable_agent.purpose': facts.purpose ?? 'turn',
    ...(facts.agent ? { 'gen_ai.agent.name': facts.agent } : {}),
    ...(facts.iteration !== undefined ? { 'durable_agent.iteration': facts.iteration } : {}),
    ...(facts.workflowId ? { 'durable_agent.workflow_id': facts.workflowId } : {}),
  }, fn);
}

/** What the answer said about itself: the model that answered, why it stopped, and the tokens. */
export function recordModelResponse(span: Span, response: { id?: string; model: string; stopReason: string | null; usage: TokenUsage; toolCalls: number }): void {
  span.setAttributes({
    'gen_ai.response.model': response.model,
    ...(response.id ? { 'gen_ai.response.id': response.id } : {}),
    ...(response.stopReason ? { 'gen_ai.response.finish_reasons': [response.stopReason] } : {}),
    'gen_ai.usage.input_tokens': response.usage.inputTokens,
    'gen_ai.usage.output_tokens': response.usage.outputTokens,
    'gen_ai.usage.cache_read.input_tokens': response.usage.cacheReadInputTokens,
    'gen_ai.usage.cache_creation.input_tokens': response.usage.cacheCreationInputTokens,
    'durable_agent.tool_calls': response.toolCalls,
  });
}

export interface ToolCallFacts {
  tool: string;
  callId: string;
  agent: string;
  workflowId?: string;
  /** How the call ran: `activity`, or `local` (a quick tool inside the workflow task). */
  execution: 'activity' | 'local';
}

/** `execute_tool <name>`: one tool call; an error result marks the span as an error. */
export function inToolSpan<T extends { success: boolean }>(facts: ToolCallFacts, fn: () => Promise<T>): Promise<T> {
  return inSpan(`execute_tool ${facts.tool}`, SpanKind.INTERNAL, {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': facts.tool,
    'gen_ai.tool.call.id': facts.callId,
    'gen_ai.tool.type': 'function',
    'gen_ai.agent.name': facts.agent,
    'durable_agent.tool.execution': facts.execution,
    ...(facts.workflowId ? { 'durable_agent.workflow_id': facts.workflowId } : {}),
  }, async (span) => {
    const result = await fn();
    span.setAttribute('durable_agent.tool.success', result.success);
    if (!result.success) span.setStatus({ code: SpanStatusCode.ERROR, message: 'the tool returned an error result' });
    return result;
  });
}
