import { z } from 'zod';
import { literalCommandMatches, pathMatches } from './preference-matching';
import { CommandPatternSchema, type SimpleCommand } from '../../contract/shell-analysis';
import { commandMatches } from './shell/match-command';
import { canonicalJson } from './canonical-json';

/**
 * What a remembered "always" or "never" covers. A person's choice is scoped to what they saw: the
 * command's words (or a prefix they chose) for `shell`, the path for file tools, the exact arguments
 * for other tools. A tool-wide choice exists, but only when asked for explicitly.
 */
export const PreferenceMatchSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tool') }),
  /**
   * One simple command's words, compared literally: a `*` the person saw quoted stays a `*`. With
   * `prefix`, the pattern's last word is a `*` marking "and any words after". Choices stored before
   * `prefix` existed cannot tell the two apart; an "always" among them is read literally.
   */
  z.object({
    kind: z.literal('command'),
    pattern: CommandPatternSchema,
    prefix: z.boolean().optional(),
    /**
     * The files the approved line wrote through redirections (`>> notes.txt`), as the person saw them.
     * An "always" with them covers a line only when it writes no other file (issue 32: the choice for
     * `echo hello >> forksteer.txt` once let `echo hello >> PWNED.txt` run). Absent on choices made
     * before this existed.
     */
    redirects: z.array(z.string()).optional(),
  }),
  /** One argument's value (e.g. `path`), exactly or as a prefix. */
  z.object({ kind: z.literal('argument'), name: z.string(), value: z.string(), prefix: z.boolean().default(false) }),
  /** The call's whole arguments, as canonical JSON. */
  z.object({ kind: z.literal('arguments'), json: z.string() }),
]);
export type PreferenceMatch = z.infer<typeof PreferenceMatchSchema>;

export const PreferenceRuleSchema = z.object({
  tool: z.string().min(1),
  preference: z.enum(['always', 'never']),
  match: PreferenceMatchSchema,
  by: z.string().optional(),
  at: z.string().optional(),
  fromWorkflowId: z.string().optional(),
  /** Tool-wide because it was made before choices were scoped (schema 1 of the preferences store). */
  migrated: z.boolean().optional(),
  /**
   * An "always" given for a call that writes (a write tool, or a command the shell analysis says
   * writes): the calls it lets run later may change the workspace. Absent (every choice stored before
   * this existed) means false: they run with the workspace read-only.
   */
  writes: z.boolean().optional(),
  /**
   * An "always" given for a call that ran with the network (the run allowed it, and a person's
   * approval gives a call the run's network): the calls it lets run later may use the network too,
   * when their run allows it. Absent (every choice stored before this existed) means false: they run
   * without the network.
   */
  network: z.boolean().optional(),
});
export type PreferenceRule = z.infer<typeof PreferenceRuleSchema>;

/** A stable key for "the same scope": a later choice for it replaces the earlier one. */
export function scopeKey(rule: Pick<PreferenceRule, 'tool' | 'match'>): string {
  const m = rule.match;
  switch (m.kind) {
    case 'tool':
      return `${rule.tool}`;
    case 'command':
      return `${rule.tool} command: ${m.pattern.words.join(' ')}${m.redirects ? ` > ${m.redirects.join(' ')}` : ''}`;
    case 'argument':
      return `${rule.tool} ${m.name}: ${m.value}${m.prefix ? '*' : ''}`;
    case 'arguments':
      return `${rule.tool} ${m.json}`;
  }
}

/** How a choice reads in a list: "shell: npm test", "write_file path notes.md", "write_file (every call)". */
export function describeScope(rule: Pick<PreferenceRule, 'tool' | 'match' | 'migrated'>): string {
  const m = rule.match;
  switch (m.kind) {
    case 'tool':
      return `${rule.tool} (every call${rule.migrated ? ', from before choices were scoped' : ''})`;
    case 'command':
      return `${rule.tool}: ${m.pattern.pattern}${m.redirects?.length ? ` (writing ${m.redirects.join(', ')})` : ''}`;
    case 'argument':
      return `${rule.tool} ${m.name} ${m.value}${m.prefix ? '*' : ''}`;
    case 'arguments':
      return `${rule.tool} ${m.json.length > 80 ? `${m.json.slice(0, 77)}...` : m.json}`;
  }
}

/** What a choice is compared with: the tool, its arguments, and for `shell` one simple command. */
export interface CallSubject {
  tool: string;
  input: unknown;
  command?: SimpleCommand;
  /** For `shell`: the files the whole line writes through redirections. */
  redirects?: readonly string[];
}

export function preferenceMatches(rule: PreferenceRule, call: CallSubject): boolean {
  if (rule.tool !== call.tool) return false;
  const m = rule.match;
  switch (m.kind) {
    case 'tool':
      return true;
    case 'command':
      // An "always" must not let anything extra through; a "never" must catch variants.
      if (call.command === undefined) return false;
      if (rule.preference !== 'always') return commandMatches(m.pattern, call.command, 'reject');
      // An "always" that names the files its line wrote covers only lines writing no others.
      if (m.redirects && !(call.redirects ?? []).every((target) => m.redirects!.includes(target))) return false;
      return literalCommandMatches(m, call.command);
    case 'argument': {
      const value = argumentOf(call.input, m.name);
      return value !== undefined && pathMatches(m.value, value, m.prefix, rule.preference);
    }
    case 'arguments':
      return canonicalJson(call.input) === m.json;
  }
}

export function argumentOf(input: unknown, name: string): string | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** `rules` with `rule` added, replacing an earlier choice for the same scope. */
export function withRule(rules: readonly PreferenceRule[], rule: PreferenceRule): PreferenceRule[] {
  const key = scopeKey(rule);
  return [...rules.filter((r) => scopeKey(r) !== key), rule];
}
