import { createHash } from 'node:crypto';
import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { canonicalJson } from '../../core/approvals/canonical-json';
import { unmarkedTool } from './prompt-cache';

/**
 * What a model request asked for besides its messages, small enough to keep in the model activity's
 * result (so in the run's history) on every call: the model id and the other plain parameters as
 * they were, and a digest of the system prompt and of each tool's definition. The replay lab
 * (src/client/replay) compares a shadow's request with the recorded one through it: the messages are
 * in the history already, and this says whether the system prompt, the tools or the parameters
 * changed, and which tool. Prompt-caching marks are left out: they are a worker setting, not what
 * the model reads.
 */
export const RequestFingerprintSchema = z.object({
  model: z.string(),
  /** The request's other fields (max_tokens, thinking, output_config, temperature...), as sent. */
  params: z.record(z.string(), z.unknown()),
  /** The first 16 hex digits of the SHA-256 of the system prompt's text. */
  system: z.string(),
  /** `name#digest` per tool, in the request's order (the digest covers its whole definition). */
  tools: z.array(z.string()),
});
export type RequestFingerprint = z.infer<typeof RequestFingerprintSchema>;

/** The fields that are compared elsewhere (messages), or carry no meaning for the model (stream). */
const NOT_PARAMS = new Set(['model', 'system', 'tools', 'messages', 'stream', 'metadata']);

export const digestOf = (value: unknown): string => createHash('sha256').update(typeof value === 'string' ? value : canonicalJson(value)).digest('hex').slice(0, 16);

/** The value with every `cache_control` member removed, at any depth. */
export function withoutCacheControl<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, member: unknown) => (key === 'cache_control' ? undefined : member))) as T;
}

/** The system prompt as the model reads it: its text, whether it was sent as a string or as blocks. */
export function systemText(system: Anthropic.MessageCreateParams['system']): string {
  if (system === undefined) return '';
  return typeof system === 'string' ? system : system.map((block) => block.text).join('');
}

/**
 * Each tool's `name#digest`, remembered by identity. The registry builds an agent's tool specs once
 * and hands the same objects to every request (agent-registry.ts), and the prompt-cache mark goes on
 * a copy whose original `unmarkedTool` gives back (prompt-cache.ts): so a run digests each tool once,
 * not on every model call (0.1–0.3 ms a call, bench/results/cpu-main-thread.md). Nothing edits a tool
 * object after it is built, so a remembered digest cannot go stale; a tool built anew (a typed-output
 * run's completion tools) is a new object and is digested anew.
 */
const toolDigestCache = new WeakMap<object, string>();

function toolDigest(marked: NonNullable<Anthropic.MessageCreateParams['tools']>[number]): string {
  const tool = unmarkedTool(marked);
  let digest = toolDigestCache.get(tool);
  if (digest === undefined) toolDigestCache.set(tool, (digest = `${(tool as { name?: string }).name ?? tool.type ?? 'tool'}#${digestOf(withoutCacheControl(tool))}`));
  return digest;
}

/** `name#digest` for each tool of the request. */
function toolDigests(tools: Anthropic.MessageCreateParams['tools']): string[] {
  return (tools ?? []).map(toolDigest);
}

export function requestFingerprint(request: Anthropic.MessageCreateParams): RequestFingerprint {
  const params = Object.fromEntries(Object.entries(request).filter(([key, value]) => !NOT_PARAMS.has(key) && value !== undefined));
  return { model: request.model, params: withoutCacheControl(params), system: digestOf(systemText(request.system)), tools: toolDigests(request.tools) };
}
