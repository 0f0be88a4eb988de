import { canonicalJson } from '../../core/approvals/canonical-json';
import type { ConversationMessage } from '../../contract/messages';
import type { RequestFingerprint } from '../../runtime/model/request-fingerprint';

/** How a shadow's model request differs from the recorded one: in words, and both sides' part. */
export interface RequestDifference {
  what: string;
  recorded: unknown;
  shadow: unknown;
}

const EXCERPT_CHARS = 240;

/** A message's text as a person would skim it: its text and tool results, its calls as `name(args)`. */
export function excerpt(message: ConversationMessage | undefined): string {
  if (!message) return '(none)';
  const parts = typeof message.content === 'string' ? [message.content] : message.content.map((block) => {
    if (block.type === 'text') return block.text;
    if (block.type === 'tool_use') return `${block.name}(${JSON.stringify(block.input)})`;
    if (block.type === 'tool_result') return `[result of ${block.tool_use_id}] ${block.content}`;
    return `[${block.type}]`;
  });
  const text = parts.join(' ').replace(/\s+/g, ' ').trim();
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text;
}

function toolsDifference(recorded: string[], shadow: string[]): string {
  const names = (list: string[]) => new Map(list.map((entry) => [entry.slice(0, entry.lastIndexOf('#')), entry]));
  const [before, after] = [names(recorded), names(shadow)];
  const added = [...after.keys()].filter((name) => !before.has(name));
  const removed = [...before.keys()].filter((name) => !after.has(name));
  const changed = [...after.keys()].filter((name) => before.has(name) && before.get(name) !== after.get(name));
  const parts = [
    added.length ? `new: ${added.join(', ')}` : '',
    removed.length ? `gone: ${removed.join(', ')}` : '',
    changed.length ? `definition changed: ${changed.join(', ')}` : '',
  ].filter(Boolean);
  return parts.length ? `the tools differ (${parts.join('; ')})` : 'the tools are in another order';
}

/**
 * Compares what a request asked for besides its messages. Runs recorded before fingerprints were
 * kept have none: then only the messages are compared, and the report says so.
 */
export function fingerprintDifference(recorded: RequestFingerprint | undefined, shadow: RequestFingerprint, systemPrompt: string): RequestDifference | undefined {
  if (!recorded) return undefined;
  if (recorded.model !== shadow.model) return { what: 'the model differs', recorded: { model: recorded.model }, shadow: { model: shadow.model } };
  if (canonicalJson(recorded.params) !== canonicalJson(shadow.params)) return { what: 'the request parameters differ', recorded: { params: recorded.params }, shadow: { params: shadow.params } };
  if (recorded.system !== shadow.system) {
    const start = systemPrompt.length > EXCERPT_CHARS ? `${systemPrompt.slice(0, EXCERPT_CHARS - 1)}…` : systemPrompt;
    return { what: 'the system prompt differs', recorded: { systemDigest: recorded.system }, shadow: { systemDigest: shadow.system, systemPrompt: start } };
  }
  if (canonicalJson(recorded.tools) !== canonicalJson(shadow.tools)) return { what: toolsDifference(recorded.tools, shadow.tools), recorded: { tools: recorded.tools }, shadow: { tools: shadow.tools } };
  return undefined;
}

/** The first message that differs, by canonical JSON (key order and cache marks do not count). */
export function messagesDifference(recorded: ConversationMessage[], shadow: ConversationMessage[]): RequestDifference | undefined {
  const length = Math.max(recorded.length, shadow.length);
  for (let i = 0; i < length; i += 1) {
    if (canonicalJson(recorded[i]) === canonicalJson(shadow[i])) continue;
    const side = (message: ConversationMessage | undefined) => ({ message: i + 1, role: message?.role ?? null, excerpt: excerpt(message) });
    const what = recorded[i] === undefined ? `the shadow's conversation has a message more (message ${i + 1})` : shadow[i] === undefined ? `the shadow's conversation lacks message ${i + 1}` : `message ${i + 1} of the conversation differs`;
    return { what, recorded: side(recorded[i]), shadow: side(shadow[i]) };
  }
  return undefined;
}
