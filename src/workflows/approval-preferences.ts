import { allHandlersFinished, condition, makeContinueAsNewFunc, setHandler, upsertMemo, workflowInfo } from '@temporalio/workflow';
import {
  applyChange,
  changePreferenceSignal,
  PreferenceChangeSchema,
  preferencesQuery,
  PREFERENCES_MEMO_KEY,
  toRules,
} from '../core/approvals/preference-messages';
import type { PreferenceRule } from '../core/approvals/preference-rules';

/**
 * The preferences workflow's state, carried across continue-as-new. Version 1 held tool-wide entries;
 * version 2 holds scoped rules. Both are read (version 1 entries become tool-wide rules).
 */
export interface PreferencesState {
  schemaVersion: 1 | 2;
  entries: unknown[];
}

/**
 * One person's "always" / "never" choices, kept durably by Temporal itself: a workflow that lives as
 * long as the namespace, so the choices survive worker and server restarts without another database.
 * It continues as new when its history grows, carrying only the current entries.
 */
export async function approvalPreferences(state?: PreferencesState): Promise<void> {
  let rules: PreferenceRule[] = toRules(state?.entries ?? []);
  // The entries are mirrored into the memo, which `describe` returns without a worker: a run that
  // starts while no worker polls this workflow's task queue can still read its person's choices.
  // The mirror shipped (2775a39) without a patch. It stays unguarded on purpose: that release's
  // histories carry memo events without a marker, so guarding it now would break their replay, and
  // histories from before it replay because the SDK tolerates a memo command with no event (both are
  // replay fixtures; see docs/guides/upgrading.md). An execution from before the mirror has no memo until its
  // next signal; readPreferences asks it by query meanwhile.
  const publish = () => upsertMemo({ [PREFERENCES_MEMO_KEY]: rules });
  publish();
  setHandler(preferencesQuery, () => rules);
  setHandler(changePreferenceSignal, (raw) => {
    // A malformed change is dropped: a signal handler that throws would fail the workflow task.
    const parsed = PreferenceChangeSchema.safeParse(raw);
    if (!parsed.success) return;
    rules = applyChange(rules, parsed.data);
    publish();
  });
  await condition(() => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > 2_000);
  await condition(allHandlersFinished);
  // Under Worker Versioning the next execution starts on the deployment's current build (this one is
  // PINNED to the build that started it, as runs are); unversioned workers are not affected.
  await makeContinueAsNewFunc<typeof approvalPreferences>({ initialVersioningBehavior: 'AUTO_UPGRADE' })({ schemaVersion: 2, entries: rules });
}
