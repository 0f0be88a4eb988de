// Anthropic's prompt caching, as documented, for the fake Messages API:
// - the prompt is one sequence of blocks in the order tools → system → messages;
// - a block with `cache_control` is a breakpoint (at most 4; more is a 400); the prefix up to and
//   including it is written to the cache, if it is at least the model's minimum (1,024 tokens here);
// - a request reads the longest prefix already cached that ends at one of its breakpoints or at one of
//   the 20 block boundaries before each (the lookback window);
// - entries live 5 minutes (or 1 hour with `ttl: "1h"`), refreshed by every hit;
// - usage splits the prompt into `cache_read_input_tokens` (the prefix read), `cache_creation_input_tokens`
//   (from there to the last breakpoint) and `input_tokens` (after the last breakpoint).
// Tokens are estimated as a quarter of each block's JSON length, `cache_control` left out (the mark is
// not part of the content, so moving it does not change the prefix).
import { createHash } from 'node:crypto';
import type Anthropic from '@anthropic-ai/sdk';

export interface CacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** A request the real API would refuse (a 400 with this message). */
export class PromptCacheRequestError extends Error {}

interface Block {
  tokens: number;
  /** Hash of the prefix ending with this block. */
  prefix: string;
  breakpoint?: { ttlMs: number };
}

const FIVE_MINUTES = 5 * 60_000;
const ONE_HOUR = 60 * 60_000;
const MAX_BREAKPOINTS = 4;
const LOOKBACK_BLOCKS = 20;

type Body = Pick<Anthropic.MessageCreateParams, 'tools' | 'system' | 'messages'>;

function withoutCacheControl(value: Record<string, unknown>): Record<string, unknown> {
  const { cache_control: _mark, ...rest } = value;
  return rest;
}

/** The request as cacheable blocks, each with the hash of the prefix it ends. */
function blocksOf(body: Body): Block[] {
  const raw: Record<string, unknown>[] = [];
  for (const tool of body.tools ?? []) raw.push(tool as unknown as Record<string, unknown>);
  if (typeof body.system === 'string') raw.push({ type: 'text', text: body.system });
  else for (const block of body.system ?? []) raw.push(block as unknown as Record<string, unknown>);
  for (const message of body.messages ?? []) {
    if (typeof message.content === 'string') raw.push({ role: message.role, type: 'text', text: message.content });
    else for (const block of message.content) raw.push({ role: message.role, ...(block as unknown as Record<string, unknown>) });
  }
  let hash = '';
  return raw.map((value) => {
    const content = JSON.stringify(withoutCacheControl(value));
    hash = createHash('sha256').update(hash).update(content).digest('hex');
    const mark = value.cache_control as { ttl?: string } | undefined;
    return { tokens: Math.ceil(content.length / 4), prefix: hash, ...(mark ? { breakpoint: { ttlMs: mark.ttl === '1h' ? ONE_HOUR : FIVE_MINUTES } } : {}) };
  });
}

export class PromptCacheSimulator {
  private readonly entries = new Map<string, number>();

  constructor(
    private readonly options: { minTokens?: number; now?: () => number } = {},
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** The usage of one request, and the cache as it stands after it. */
  apply(body: Body): CacheUsage {
    const blocks = blocksOf(body);
    const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    if (breakpoints.length > MAX_BREAKPOINTS) {
      throw new PromptCacheRequestError(`A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints.length}.`);
    }
    const now = this.now();
    const minTokens = this.options.minTokens ?? 1_024;
    const upTo: number[] = [];
    blocks.reduce((sum, b, i) => (upTo[i] = sum + b.tokens), 0);
    const total = upTo.at(-1) ?? 0;
    // The longest cached prefix within the lookback window of any breakpoint.
    let readEnd = -1;
    for (const at of breakpoints) {
      for (let i = at; i >= Math.max(0, at - LOOKBACK_BLOCKS); i -= 1) {
        const expires = this.entries.get(blocks[i]!.prefix);
        if (expires !== undefined && expires > now) {
          if (i > readEnd) readEnd = i;
          break;
        }
      }
    }
    const read = readEnd >= 0 ? upTo[readEnd]! : 0;
    const last = breakpoints.at(-1);
    const cachedEnd = last !== undefined && upTo[last]! >= minTokens ? last : -1;
    const written = cachedEnd > readEnd ? upTo[cachedEnd]! - read : 0;
    if (readEnd >= 0) this.entries.set(blocks[readEnd]!.prefix, now + (blocks[readEnd]!.breakpoint?.ttlMs ?? FIVE_MINUTES));
    for (const at of breakpoints) if (upTo[at]! >= minTokens && at > readEnd) this.entries.set(blocks[at]!.prefix, now + blocks[at]!.breakpoint!.ttlMs);
    return { input_tokens: total - read - written, cache_creation_input_tokens: written, cache_read_input_tokens: read };
  }
}

/**
 * The request as the model sees its content: `cache_control` marks removed, and a string the runtime
 * turned into one marked text block (to carry a breakpoint) a string again. Tests written before
 * prompt caching compare contents and keep doing so; `wire` in the fake keeps what was sent.
 */
export function withoutCacheMarks<T extends Body>(body: T): T {
  const unmark = (content: unknown): unknown => {
    if (!Array.isArray(content)) return content;
    if (content.length === 1 && content[0]?.type === 'text' && content[0].cache_control) return content[0].text;
    return content.map((b: Record<string, unknown>) => ('cache_control' in b ? withoutCacheControl(b) : b));
  };
  return {
    ...body,
    ...(body.tools ? { tools: body.tools.map((t) => withoutCacheControl(t as unknown as Record<string, unknown>)) } : {}),
    ...(body.system !== undefined ? { system: unmark(body.system) } : {}),
    messages: (body.messages ?? []).map((m) => ({ ...m, content: unmark(m.content) })),
  } as T;
}
