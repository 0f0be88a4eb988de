import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { teamToolSpecs } from '../agents/team-tools';
import type { ShellAnalysis } from '../../contract/shell-analysis';
import { ConversationRefSchema } from '../../contract/conversation-ref';
import type Anthropic from '@anthropic-ai/sdk';
import { isApiBlock, type ApiBlock, type ContentBlock, type ConversationMessage, type TokenUsage } from '../../contract/messages';
import { FailureType } from '../../contract/errors';
import { EffortSchema } from '../../contract/model-options';
import { buildModelRequest, outputContractFor } from '../model/model-request';
import { requestFingerprint, type RequestFingerprint } from '../model/request-fingerprint';
import { streamMessage } from '../model/stream-message';
import type { LiveRelayAddress } from '../../contract/live-feed';
import { isRetriedOutage } from '../model/model-errors';
import { withAttachments } from '../conversation/tool-attachments';
import { usageFrom } from '../model/usage';
import { inModelSpan, recordModelResponse } from '../observability/genai-spans';
import { checkCompletionOutputs } from '../../core/structured-output/completion-output';
import { JsonSchemaObjectSchema, type OutputCheck } from '../../contract/output-check';
import type { ActivityDeps } from './activity-deps';
import { materialize } from './conversation-sync';
import { promptCharsOf } from './prompt-chars';
import { workspaceFor } from './run-tool';
import { replyCostFacts, type ReplyCostFacts } from './reply-cost';
import { nexusArgumentProblems } from '../agents/nexus-tools';

export const CallModelInputSchema = z.object({
  agent: z.string(),
  iteration: z.number().int(),
  conversation: ConversationRefSchema,
  /** The run's own result schema; without it the agent's applies, if it has one. */
  outputSchema: JsonSchemaObjectSchema.optional(),
  /** Whom this run may delegate to or hand off to; delegate_task and handoff are offered only then. */
  team: z
    .object({ subAgents: z.array(z.string()), handoffs: z.array(z.string()), depth: z.number().int(), maxDepth: z.number().int(), maxPerTurn: z.number().int() })
    .optional(),
  /** The run's own model id and effort, overriding the agent's. */
  model: z.string().min(1).optional(),
  effort: EffortSchema.optional(),
});
export type CallModelInput = z.infer<typeof CallModelInputSchema>;

export interface CallModelResult extends ReplyCostFacts {
  message: ConversationMessage;
  stopReason: string | null;
  model: string;
  usage: TokenUsage;
  /** Messages the activity now keeps under the conversation key (the prompt plus this reply). */
  storedCount: number;
  /** Tag of this write; the next call must present it to use the stored messages. */
  storedTag: string;
  /** Characters of the prompt's messages, to calibrate the workflow's token estimate. */
  promptChars: number;
  /** The worker's reading of the reply's tool calls (parsed shell commands), by tool_use id. */
  analyses: Record<string, ShellAnalysis>;
  /** For runs with an output schema: each completion call's `output` checked against it, by tool_use id. */
  outputChecks?: Record<string, OutputCheck>;
  /** Nexus tool calls whose arguments do not fit the tool's input schema: the error result for each, by tool_use id (absent when none). */
  argumentProblems?: Record<string, string>;
  /**
   * The call continued a paused turn (`pause_turn`): `message` is that whole turn, the paused blocks
   * followed by this reply's, and takes the place of the conversation's last message.
   */
  continued?: true;
  /**
   * What the request asked for besides its messages (model, parameters, digests of the system prompt
   * and of each tool), so the replay lab can tell from the history whether a shadow asks the same.
   */
  request?: RequestFingerprint;
  /**
   * Where this worker's live relay serves the run's feed, and the run's token: kept in the history so
   * a watcher finds the relay with one history read while no call is in flight (a parked run). The
   * machine ignores it. See docs/guides/cli.md, "How watch gets the text".
   */
  relay?: LiveRelayAddress;
}

/** A stream that sends nothing for this long is abandoned and the call retried (`AGENT_MODEL_IDLE_SECONDS`, read at start). */
export function idleMsOf(deps: Pick<ActivityDeps, 'settings'>): number {
  return deps.settings.limits.modelIdleSeconds * 1000;
}

/** delegate_task and handoff for this run, with the targets' descriptions from this worker's registry. */
function teamTools(deps: ActivityDeps, team: CallModelInput['team']) {
  if (!team) return [];
  const described = (names: string[]) => names.flatMap((name) => {
    const agent = deps.registry.agents.get(name);
    return agent ? [{ name, description: agent.description }] : [];
  });
  return teamToolSpecs({ subAgents: described(team.subAgents), handoffs: described(team.handoffs), limits: { depth: team.depth, maxDepth: team.maxDepth, maxPerTurn: team.maxPerTurn } });
}

/**
 * Runs each tool's `analyze` on the calls it made (for `shell`: the parsed command the rules judge).
 * `workspaceRoot` is the folder the call will run in (the run's own folder for per-run agents), the
 * one runTool gives the tool, so write targets are judged against where they will land.
 */
async function analyzeCalls(deps: ActivityDeps, content: ContentBlock[], workspaceRoot: string): Promise<Record<string, ShellAnalysis>> {
  const analyses: Record<string, ShellAnalysis> = {};
  for (const block of content) {
    if (block.type !== 'tool_use') continue;
    const tool = deps.registry.tools.get(block.name);
    if (!tool?.analyze) continue;
    const parsed = tool.inputSchema.safeParse(block.input);
    if (!parsed.success) continue;
    try {
      analyses[block.id] = await tool.analyze(parsed.data, { workspaceRoot });
    } catch (error) {
      analyses[block.id] = { understood: false, problems: [`the worker could not analyse it: ${(error as Error).message}`], commands: [], writes: [] };
    }
  }
  return analyses;
}

/**
 * A tool call as kept: its id, name and input, and, as the API sent them, the caller when the model did
 * not call directly (code the API ran) and the toolset's name. A direct call keeps the shape it had.
 */
function keptToolUse(block: Anthropic.ToolUseBlock): ContentBlock {
  const caller = block.caller && block.caller.type !== 'direct' ? { caller: structuredClone(block.caller) } : {};
  const toolset = block.toolset_name ? { toolset_name: block.toolset_name } : {};
  return { type: 'tool_use', id: block.id, name: block.name, input: block.input, ...caller, ...toolset };
}

/**
 * The reply's blocks as the conversation keeps them, in the API's order. Text and tool calls are
 * reduced to the fields this runtime sends back (text keeps its citations, verbatim, when it has
 * some); the API's own blocks (thinking, redacted thinking, server tool calls and every kind of their
 * results, container uploads) are kept whole, every field as sent: the API refuses a thinking block
 * that comes back changed, and a signature covers what we cannot see.
 */
export function keptBlocks(blocks: readonly Anthropic.ContentBlock[]): ContentBlock[] {
  const content: ContentBlock[] = [];
  for (const block of blocks) {
    if (block.type === 'text') content.push(block.citations?.length ? { type: 'text', text: block.text, citations: structuredClone(block.citations) } : { type: 'text', text: block.text });
    else if (block.type === 'tool_use') content.push(keptToolUse(block));
    else if (isApiBlock(block)) content.push(structuredClone(block) as ApiBlock);
  }
  return content;
}

/**
 * A conversation that ends with an assistant message ends with a turn the API paused (`pause_turn`, in
 * a long server tool turn). The API's way to go on is to send that turn back as it is, as the last
 * message, with no user message after it; the reply continues the same turn, so its blocks are kept
 * after the paused ones, in one assistant message (thinking stays first; no tool call is split from
 * its result, since the paused part has no tool calls of the worker's).
 */
function splitPausedTurn(messages: ConversationMessage[]): { prompt: ConversationMessage[]; paused: ContentBlock[] } {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return { prompt: messages, paused: [] };
  const paused: ContentBlock[] = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
  return { prompt: messages.slice(0, -1), paused };
}

/**
 * One model turn: rebuild the conversation, stream the Messages API's answer with the agent's tools
 * (heartbeating as it arrives, with the text so far as heartbeat details for live output), keep the
 * reply, and read the calls it makes.
 */
export function createCallModel(deps: ActivityDeps) {
  return async function callModel(raw: CallModelInput): Promise<CallModelResult> {
    const input = CallModelInputSchema.parse(raw);
    const agent = deps.registry.agents.get(input.agent);
    if (!agent) {
      throw ApplicationFailure.nonRetryable(`Agent "${input.agent}" is not registered on this worker.`, FailureType.UnknownAgent);
    }
    const contract = outputContractFor(agent, input.outputSchema);
    const messages = await materialize(deps.conversations, input.conversation);
    const context = Context.current();
    const request = buildModelRequest({
      registry: deps.registry,
      agent,
      messages,
      contract,
      extraTools: teamTools(deps, input.team),
      cache: deps.settings.limits.promptCache,
      models: deps.settings.model.tiers,
      overrides: { model: input.model, effort: input.effort },
    });
    // Tool results' images and documents are kept in the store, not the history: added back here.
    request.messages = await withAttachments(request.messages, deps.conversations, input.conversation.owner);
    const facts = { model: request.model, maxTokens: request.max_tokens, agent: agent.name, iteration: input.iteration, workflowId: context.info.workflowExecution?.workflowId };
    // The relay pushes the text to watchers as it comes; the heartbeat tells them where the relay is
    // (and keeps the text so far for those who cannot reach it).
    const watched = facts.workflowId !== undefined ? deps.live : undefined;
    const live = watched?.calls.begin({ workflowId: facts.workflowId!, iteration: input.iteration, attempt: context.info.attempt });
    const relay = watched ? { relay: watched.addressFor(facts.workflowId!) } : {};
    const response = await inModelSpan(facts, async (span) => {
      const answer = await streamMessage(deps.anthropic(agent.provider), request, {
        // The iteration lets a follower tell this call's text from the previous one's (client/live-text.ts).
        progress: (p) => context.heartbeat({ ...p, iteration: input.iteration, ...relay }),
        onDelta: live?.write,
        signal: context.cancellationSignal,
        idleMs: idleMsOf(deps),
        attempt: context.info.attempt,
      }).catch((error: unknown) => {
        // A retried outage is one line at WARN (Temporal logs the benign failure itself at DEBUG, with its stack).
        if (isRetriedOutage(error)) context.log.warn(`Model call of ${agent.name} (attempt ${context.info.attempt}): ${error.message}`);
        throw error;
      }).finally(() => live?.end());
      const toolCalls = answer.content.filter((b) => b.type === 'tool_use').length;
      recordModelResponse(span, { id: answer.id, model: answer.model, stopReason: answer.stop_reason, usage: usageFrom(answer.usage), toolCalls });
      return answer;
    });
    const { prompt, paused } = splitPausedTurn(messages);
    const content = [...paused, ...keptBlocks(response.content)];
    // The API rejects an empty assistant message later in the conversation, so keep a placeholder.
    if (content.length === 0) content.push({ type: 'text', text: '(no content)' });
    const message: ConversationMessage = { role: 'assistant', content };
    const argumentProblems = nexusArgumentProblems(deps.registry, agent.name, content);
    const tag = randomUUID();
    await deps.conversations.save(input.conversation.key, { messages: [...prompt, message], tag }, input.conversation.owner);
    return {
      message,
      ...(prompt.length < messages.length ? { continued: true as const } : {}),
      stopReason: response.stop_reason,
      model: response.model,
      usage: usageFrom(response.usage),
      storedCount: prompt.length + 1,
      storedTag: tag,
      promptChars: promptCharsOf(messages),
      analyses: await analyzeCalls(deps, content, workspaceFor(deps.workspaceRoot, agent.workspace, facts.workflowId ?? 'standalone').workspaceRoot),
      ...(contract ? { outputChecks: checkCompletionOutputs(content, agent.completionTools, contract) } : {}),
      ...(argumentProblems ? { argumentProblems } : {}),
      request: requestFingerprint(request),
      ...relay,
      ...replyCostFacts(deps, [response.model, request.model]),
    };
  };
}
