import type Anthropic from '@anthropic-ai/sdk';
import { ApplicationFailure } from '@temporalio/common';
import type { ContentBlock, ConversationMessage, TokenUsage } from '../../contract/messages';
import type { ModelClient } from '../../runtime/model/providers/model-client';
import { requestFingerprint, systemText } from '../../runtime/model/request-fingerprint';
import { usageFrom } from '../../runtime/model/usage';
import type { RecordedModelCall } from './recorded-run';
import { fingerprintDifference, messagesDifference, type RequestDifference } from './request-comparison';
import type { DivergenceKind, ShadowSession } from './shadow-session';

/** The failure type of a shadow's model call the replay stopped: the shadow run fails with it, and is terminated anyway. */
export const REPLAY_STOPPED = 'ReplayStopped';

export function stoppedFailure(session: ShadowSession): ApplicationFailure {
  return ApplicationFailure.create({ type: REPLAY_STOPPED, nonRetryable: true, message: `Replay lab: ${session.stopReason ?? 'the shadow diverged from the recorded run and runs without --live-model'}; stopped here.` });
}

/** The API's usage, as the recorded reply counted it (usage.ts reads it back unchanged). */
function apiUsage(usage: TokenUsage): Anthropic.Usage {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
    ...(usage.thinkingTokens !== undefined ? { output_tokens_details: { thinking_tokens: usage.thinkingTokens } } : {}),
    ...(usage.serverToolUse ? { server_tool_use: usage.serverToolUse } : {}),
  } as unknown as Anthropic.Usage;
}

/**
 * The recorded reply as the API sent it. The history keeps the blocks as the model activity kept
 * them (keptBlocks, which reads them back unchanged); a continued paused turn kept the paused blocks
 * before the reply's, and the activity puts them there again.
 */
function apiMessage(call: RecordedModelCall): Anthropic.Message {
  const content = call.reply.message.content;
  const blocks: ContentBlock[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  const last = call.messages?.at(-1);
  const paused = call.reply.continued && last?.role === 'assistant' ? (typeof last.content === 'string' ? 1 : last.content.length) : 0;
  return {
    id: `msg_replayed_${call.index}`,
    type: 'message',
    role: 'assistant',
    model: call.reply.model,
    content: blocks.slice(paused) as unknown as Anthropic.ContentBlock[],
    stop_reason: call.reply.stopReason as Anthropic.StopReason,
    stop_sequence: null,
    usage: apiUsage(call.reply.usage),
  } as Anthropic.Message;
}

/** A stream that has ended: the model activity reads only its events (none) and its final message. */
function endedStream(message: Anthropic.Message): ReturnType<Anthropic.Messages['stream']> {
  const stream = { on: () => stream, finalMessage: () => Promise.resolve(message) };
  return stream as unknown as ReturnType<Anthropic.Messages['stream']>;
}

export interface ShadowCall {
  session: ShadowSession;
  /** Which recorded model call this request should equal. */
  index: number;
  iteration: number;
  /** The shadow's prompt as its model activity rebuilt it, before attachments and cache marks. */
  messages: ConversationMessage[];
  /** The real model, for `--live-model`; undefined otherwise. */
  live?: ModelClient;
  /** A question the record holds no answer to (a judge's, a summary's): it diverges at once, so. */
  unrecorded?: { kind: DivergenceKind; what: string };
}

/** Endings that come from outside the run (a person parked it, cancelled or terminated it): the record just ends there. */
const CUT_SHORT = new Set(['parked', 'cancelled', 'terminated', 'timed_out']);

/**
 * A request past the last recorded one that is not a divergence: the recorded run ended there for a
 * reason the shadow cannot meet (it was stopped from outside: the record simply ends), or its next
 * model call failed and ended it (the shadow's fails the same way).
 */
function pastTheRecord(call: ShadowCall): ApplicationFailure | undefined {
  const { recorded } = call.session;
  if (call.unrecorded || call.index !== recorded.modelCalls.length) return undefined;
  if (CUT_SHORT.has(recorded.ending)) {
    call.session.atRecordEnd = true;
    call.session.stop(`the shadow reached the end of the record: the recorded run was ${recorded.ending} before its model request ${call.index + 1}`);
    return stoppedFailure(call.session);
  }
  const failed = recorded.finalModelFailure;
  return failed ? ApplicationFailure.create({ type: failed.type ?? 'ModelRequestRejected', nonRetryable: true, message: failed.message }) : undefined;
}

/** Why the request cannot be answered from the record, or undefined when it equals the recorded one. */
function differenceOf(call: ShadowCall, recorded: RecordedModelCall | undefined, params: Anthropic.MessageCreateParams): { kind: DivergenceKind; difference: RequestDifference } | undefined {
  if (call.unrecorded) return { kind: call.unrecorded.kind, difference: { what: call.unrecorded.what, recorded: null, shadow: { model: params.model } } };
  if (!recorded) {
    const ending = call.session.recorded.ending;
    return { kind: 'completion', difference: { what: `the recorded run made no model request ${call.index + 1} (it ${ending === 'parked' ? 'was parked there' : `ended ${ending}`}); the shadow asks for one`, recorded: { modelRequests: call.session.recorded.modelCalls.length }, shadow: { modelRequest: call.index + 1 } } };
  }
  const fingerprint = fingerprintDifference(recorded.request, requestFingerprint(params), systemText(params.system));
  const difference = fingerprint ?? messagesDifference(recorded.messages ?? [], call.messages);
  return difference ? { kind: 'model_request', difference } : undefined;
}

/**
 * The model client a shadow's model activity gets for one call: it answers with the recorded reply
 * while the request equals the recorded one (same messages; same model, parameters, system prompt and
 * tools where the record has their fingerprint). At the first request that differs it records the
 * divergence and then asks the live model (`--live-model`) or stops the shadow. The request is the one
 * the worker's own model activity built: nothing about building it is copied here.
 */
export function shadowModelClient(call: ShadowCall): ModelClient {
  const { session } = call;
  const answer = (params: Anthropic.MessageCreateParams): Anthropic.Message | 'live' => {
    if (!session.leftRecord) {
      const ended = pastTheRecord(call);
      if (ended) throw ended;
      const recorded = session.recorded.modelCalls[call.index];
      const found = differenceOf(call, recorded, params);
      if (!found) {
        session.modelCalls.replayed += 1;
        return apiMessage(recorded!);
      }
      session.leftRecord = true;
      session.diverge({ iteration: call.iteration, kind: found.kind, ...found.difference });
    }
    if (call.live) return 'live';
    session.stop(call.unrecorded ? `${call.unrecorded.what}, and the replay runs without --live-model` : `the shadow's model request ${call.index + 1} (iteration ${call.iteration}) differs from the recorded run's, and the replay runs without --live-model`);
    throw stoppedFailure(session);
  };
  // Priced at the model asked for: a reply may name a dated id of the same model.
  const counted = (model: string) => (message: Anthropic.Message) => {
    session.modelCalls.live += 1;
    session.liveUsage.push({ model, usage: usageFrom(message.usage) });
    return message;
  };
  const stream = ((params: Anthropic.MessageStreamParams, options?: Anthropic.RequestOptions) => {
    const answered = answer(params as Anthropic.MessageCreateParams);
    if (answered !== 'live') return endedStream(answered);
    const live = call.live!.messages.stream(params, options);
    void live.finalMessage().then(counted(params.model), () => undefined);
    return live;
  }) as Anthropic.Messages['stream'];
  const create = (async (params: Anthropic.MessageCreateParamsNonStreaming, options?: Anthropic.RequestOptions) => {
    const answered = answer(params);
    if (answered !== 'live') return answered;
    return counted(params.model)(await call.live!.messages.create(params, options));
  }) as Anthropic.Messages['create'];
  return { messages: { stream, create } };
}
