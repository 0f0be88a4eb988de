import { allHandlersFinished, condition, continueAsNew, setHandler, upsertMemo, workflowInfo } from '@temporalio/workflow';
import {
  changePreferenceSignal,
  PreferenceChangeSchema,
  preferencesQuery,
  PREFERENCES_MEMO_KEY,
  type PreferenceEntry,
} from '../approvals/preference-messages';

/** The preferences workflow's state; versioned because it is carried across continue-as-new. */
export interface PreferencesStateV1 {
  schemaVersion: 1;
  entries: PreferenceEntry[];
}

/**
 * One person's "always" / "never" choices, kept durably by Temporal itself: a workflow that lives as
 * long as the namespace, so the choices survive worker and server restarts without another database.
 * It continues as new when its history grows, carrying only the current entries.
 */
export async function approvalPreferences(state?: PreferencesStateV1): Promise<void> {
  const entries = new Map<string, PreferenceEntry>((state?.entries ?? []).map((e) => [e.tool, e]));
  // The entries are mirrored into the memo, which `describe` returns without a worker: a run that
  // starts while no worker polls this workflow's task queue can still read its person's choices.
  // The mirror shipped (2775a39) without a patch. It stays unguarded on purpose: that release's
  // histories carry memo events without a marker, so guarding it now would break their replay, and
  // histories from before it replay because the SDK tolerates a memo command with no event (both are
  // replay fixtures; see docs/upgrading.md). An execution from before the mirror has no memo until its
  // next signal; readPreferences asks it by query meanwhile.
  const publish = () => upsertMemo({ [PREFERENCES_MEMO_KEY]: [...entries.values()] });
  publish();
  setHandler(preferencesQuery, () => [...entries.values()]);
  setHandler(changePreferenceSignal, (raw) => {
    // A malformed change is dropped: a signal handler that throws would fail the workflow task.
    const parsed = PreferenceChangeSchema.safeParse(raw);
    if (!parsed.success) return;
    const change = parsed.data;
    if (change.preference === 'revoke') entries.delete(change.tool);
    else entries.set(change.tool, { ...change, preference: change.preference });
    publish();
  });
  await condition(() => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > 2_000);
  await condition(allHandlersFinished);
  await continueAsNew<typeof approvalPreferences>({ schemaVersion: 1, entries: [...entries.values()] });
}
