import { defineQuery, defineSignal } from '@temporalio/workflow';
import { z } from 'zod';
import type { ToolPreferences } from './approval-policy';

/** One remembered decision of a person about a tool. */
export const PreferenceChangeSchema = z.object({
  tool: z.string().min(1),
  /** `always` approves every later call of the tool, `never` rejects it, `revoke` forgets both. */
  preference: z.enum(['always', 'never', 'revoke']),
  by: z.string().optional(),
  at: z.string().optional(),
  fromWorkflowId: z.string().optional(),
});
export type PreferenceChange = z.infer<typeof PreferenceChangeSchema>;

export interface PreferenceEntry {
  tool: string;
  preference: 'always' | 'never';
  by?: string;
  at?: string;
  fromWorkflowId?: string;
}

export const PREFERENCES_WORKFLOW_TYPE = 'approvalPreferences';

/** The memo field that mirrors the current entries (readable with `describe`, no worker needed). */
export const PREFERENCES_MEMO_KEY = 'preferences';

/** The preferences of one person live in one long-running workflow with this id. */
export const preferencesWorkflowId = (user: string) => `approval-preferences:${user}`;

export const changePreferenceSignal = defineSignal<[PreferenceChange]>('changePreference');
export const preferencesQuery = defineQuery<PreferenceEntry[]>('preferences');

export function toToolPreferences(entries: readonly PreferenceEntry[]): ToolPreferences {
  return {
    alwaysApproved: entries.filter((e) => e.preference === 'always').map((e) => e.tool),
    alwaysRejected: entries.filter((e) => e.preference === 'never').map((e) => e.tool),
  };
}

/**
 * `preferences` with one more choice applied: the tool moves to the list of its latest choice and
 * leaves the other, so a later "always" undoes an earlier "never" and the reverse.
 */
export function withChoice(preferences: ToolPreferences, tool: string, preference: 'always' | 'never'): ToolPreferences {
  const others = (list: string[]) => list.filter((t) => t !== tool);
  return preference === 'always'
    ? { alwaysApproved: [...others(preferences.alwaysApproved), tool], alwaysRejected: others(preferences.alwaysRejected) }
    : { alwaysApproved: others(preferences.alwaysApproved), alwaysRejected: [...others(preferences.alwaysRejected), tool] };
}
