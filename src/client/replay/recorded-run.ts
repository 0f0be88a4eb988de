import type { ConversationRef } from '../../contract/conversation-ref';
import type { LifecycleEvent } from '../../contract/lifecycle-event';
import type { ConversationMessage, TokenUsage } from '../../contract/messages';
import type { RecordedEntry } from '../../contract/replay-lab';
import type { AgentRunInput } from '../../contract/run-input';
import type { AgentRunResult } from '../../contract/run-result';
import type { ToolResult } from '../../contract/tool-result';
import { RequestFingerprintSchema, type RequestFingerprint } from '../../runtime/model/request-fingerprint';
import { RecordedConversation, type StoredConversationLookup, type StoredPrefix } from './recorded-conversation';

/** A model call of the recorded run that got an answer, as its history holds it. */
export interface RecordedModelCall {
  /** Its place among the run's answered model calls, from 0. */
  index: number;
  iteration: number;
  /** The prompt's messages as the model activity rebuilt them; absent when their stored part is gone (`missing`). */
  messages?: ConversationMessage[];
  missing?: StoredPrefix;
  reply: { message: ConversationMessage; stopReason: string | null; model: string; usage: TokenUsage; continued?: true };
  /** What the request asked besides its messages; absent in runs recorded before fingerprints were kept. */
  request?: RequestFingerprint;
  /** The model activity's input and result, whole. */
  input: Record<string, unknown>;
  result: Record<string, unknown>;
}

/** A tool call the recorded run's worker ran, with what it returned. */
export interface RecordedToolCall {
  callId: string;
  tool: string;
  input: unknown;
  iteration?: number;
  result: ToolResult;
  /** Who let it run (the policy, a person, a handler), as the tool activity was told. */
  approval?: { decision: string; via?: string; approver?: string };
}

/** Another activity the run called (preferences, guardrails, judges, summaries...), answered. */
export interface RecordedActivity {
  activity: string;
  input: unknown;
  result: unknown;
}

/** How the recorded run stands: closed (and how), or parked waiting for a person. */
export type RecordedEnding = 'completed' | 'failed' | 'cancelled' | 'terminated' | 'timed_out' | 'parked';

/** Everything the replay lab knows of a recorded run, read from its histories (every continue-as-new link). */
export interface RecordedRun {
  workflowId: string;
  /** The run ids of its links, oldest first. */
  links: string[];
  /** The first link's input: what the run was started with. */
  input: AgentRunInput;
  modelCalls: RecordedModelCall[];
  /** How the model call after the last answered one failed, when that failure ended the run (a request the API refused). */
  finalModelFailure?: { message: string; type?: string };
  /** Tool calls by call id (the successful attempt when there were several). */
  toolCalls: Map<string, RecordedToolCall>;
  activities: RecordedActivity[];
  /** Compactions: the turns each summarized (as the summarizer rebuilt them) and its answer. */
  summaries: { messages: ConversationMessage[]; result: unknown }[];
  /** The signals and updates the run accepted, in order: decisions, replies, messages. */
  messages: { name: string; payload: unknown }[];
  /** The lifecycle events the run emitted (decisions, approvals asked, how it ended). */
  events: LifecycleEvent[];
  result?: AgentRunResult;
  ending: RecordedEnding;
}

/** One link's replay: what the interceptor and the lifecycle sink handed out, in order. */
export interface ReplayedLink {
  runId: string;
  entries: RecordedEntry[];
  events: LifecycleEvent[];
}

const asRecord = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {});

async function modelCallOf(entry: Extract<RecordedEntry, { kind: 'activity' }>, index: number, conversation: RecordedConversation): Promise<RecordedModelCall> {
  const input = asRecord(entry.input);
  const result = asRecord(entry.result);
  const ref = input.conversation as ConversationRef;
  const prompt = await conversation.prompt(ref);
  const reply = { message: result.message as ConversationMessage, stopReason: (result.stopReason as string | null) ?? null, model: String(result.model), usage: result.usage as TokenUsage, ...(result.continued ? { continued: true as const } : {}) };
  if ('messages' in prompt) conversation.keep(ref.key, prompt.messages, reply.message, String(result.storedTag), reply.continued === true);
  const request = RequestFingerprintSchema.safeParse(result.request);
  return {
    index,
    iteration: Number(input.iteration),
    ...('messages' in prompt ? { messages: prompt.messages } : { missing: prompt.missing }),
    reply,
    ...(request.success ? { request: request.data } : {}),
    input,
    result,
  };
}

/**
 * Assembles the recorded run from its replayed links. Only answered calls count: an attempt that
 * failed (a store miss the workflow answered by sending everything again, an unavailable model it
 * waited out) changed nothing the model saw.
 */
export async function assembleRecordedRun(workflowId: string, links: ReplayedLink[], ending: RecordedEnding, lookup?: StoredConversationLookup): Promise<RecordedRun> {
  const conversation = new RecordedConversation(lookup);
  const run: RecordedRun = { workflowId, links: links.map((l) => l.runId), input: undefined as unknown as AgentRunInput, modelCalls: [], toolCalls: new Map(), activities: [], summaries: [], messages: [], events: [], ending };
  for (const link of links) {
    run.events.push(...link.events);
    for (const entry of link.entries) {
      if (entry.kind === 'start') run.input ??= entry.input as AgentRunInput;
      else if (entry.kind === 'result') run.result = entry.result as AgentRunResult;
      else if (entry.kind === 'message') run.messages.push({ name: entry.name, payload: entry.payload });
      else if (entry.kind === 'activity' && entry.activity === 'callModel') {
        run.modelCalls.push(await modelCallOf(entry, run.modelCalls.length, conversation));
        run.finalModelFailure = undefined;
      } else if (entry.kind === 'activity_failed' && entry.activity === 'callModel') run.finalModelFailure = entry.failure;
      else if (entry.kind === 'activity' && entry.activity === 'runTool') {
        const input = asRecord(entry.input);
        const callId = String(input.callId);
        const approval = input.approval as RecordedToolCall['approval'];
        run.toolCalls.set(callId, { callId, tool: String(input.tool), input: input.input, ...(typeof input.iteration === 'number' ? { iteration: input.iteration } : {}), result: entry.result as ToolResult, ...(approval ? { approval } : {}) });
      } else if (entry.kind === 'activity' && entry.activity === 'summarizeConversation') {
        const input = asRecord(entry.input);
        const prompt = await conversation.prompt(input.conversation as ConversationRef);
        const messages = 'messages' in prompt ? prompt.messages.slice(Number(input.from), Number(input.to)) : [];
        run.summaries.push({ messages, result: entry.result });
      } else if (entry.kind === 'activity') run.activities.push({ activity: entry.activity, input: entry.input, result: entry.result });
    }
  }
  // Only a failure that ended the run counts; the others (a store miss, an outage waited out) were asked again.
  if (ending !== 'failed') run.finalModelFailure = undefined;
  return run;
}
