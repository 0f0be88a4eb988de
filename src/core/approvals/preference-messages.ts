import { defineQuery, defineSignal } from '@temporalio/workflow';
import { z } from 'zod';
import { PreferenceMatchSchema, PreferenceRuleSchema, withRule, type PreferenceRule } from './preference-rules';

/**
 * One change to a person's remembered choices, the `changePreference` signal's payload. `match` says
 * what the choice covers (see preference-rules.ts); without it the change is tool-wide, the only shape
 * the first release knew. `revoke` forgets the choice for that scope, or every choice for the tool
 * when no `match` is given.
 */
export const PreferenceChangeSchema = z.object({
  tool: z.string().min(1),
  preference: z.enum(['always', 'never', 'revoke']),
  match: PreferenceMatchSchema.optional(),
  by: z.string().optional(),
  at: z.string().optional(),
  fromWorkflowId: z.string().optional(),
  /** For an "always": whether the calls it lets run may write (see PreferenceRuleSchema). */
  writes: z.boolean().optional(),
  /** For an "always": whether the calls it lets run may use the network (see PreferenceRuleSchema). */
  network: z.boolean().optional(),
});
export type PreferenceChange = z.infer<typeof PreferenceChangeSchema>;

/**
 * An entry as the first release stored it: tool-wide. Strict, so that a current rule that fails its
 * schema (a malformed `match`, `writes` or `network`) is dropped rather than read as a tool-wide choice: an
 * "always" must never cover more than the person chose.
 */
const LegacyEntrySchema = z
  .object({
    tool: z.string().min(1),
    preference: z.enum(['always', 'never']),
    by: z.string().optional(),
    at: z.string().optional(),
    fromWorkflowId: z.string().optional(),
  })
  .strict();

/** A stored entry in either shape, as the current rule; a legacy entry becomes a tool-wide rule. */
export const StoredEntrySchema = z.union([
  PreferenceRuleSchema,
  LegacyEntrySchema.transform((e): PreferenceRule => ({ ...e, match: { kind: 'tool' }, migrated: true })),
]);

export const PREFERENCES_WORKFLOW_TYPE = 'approvalPreferences';

/** The memo field that mirrors the current entries (readable with `describe`, no worker needed). */
export const PREFERENCES_MEMO_KEY = 'preferences';

/** The preferences of one person live in one long-running workflow with this id. */
export const preferencesWorkflowId = (user: string) => `approval-preferences:${user}`;

export const changePreferenceSignal = defineSignal<[PreferenceChange]>('changePreference');
export const preferencesQuery = defineQuery<PreferenceRule[]>('preferences');

/** Entries in either stored shape as rules; malformed entries are dropped. */
export function toRules(entries: readonly unknown[]): PreferenceRule[] {
  return entries.flatMap((e) => {
    const parsed = StoredEntrySchema.safeParse(e);
    return parsed.success ? [parsed.data] : [];
  });
}

/** `rules` after `change`: a choice replaces the earlier one for its scope; a revoke removes it. */
export function applyChange(rules: readonly PreferenceRule[], change: PreferenceChange): PreferenceRule[] {
  if (change.preference === 'revoke') {
    if (!change.match) return rules.filter((r) => r.tool !== change.tool);
    const target = JSON.stringify(change.match);
    return rules.filter((r) => r.tool !== change.tool || JSON.stringify(r.match) !== target);
  }
  const { match, ...rest } = change;
  return withRule(rules, { ...rest, preference: change.preference, match: match ?? { kind: 'tool' } });
}
