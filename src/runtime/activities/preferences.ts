import { z } from 'zod';
import { changePreferenceSignal, PREFERENCES_WORKFLOW_TYPE, PreferenceChangeSchema, preferencesWorkflowId } from '../../core/approvals/preference-messages';
import type { PreferenceRule } from '../../core/approvals/preference-rules';
import { readPreferences } from '../approvals/read-preferences';
import type { ActivityDeps } from './activity-deps';
import type { NexusTargets } from '../../contract/nexus-tool';
import { nexusToolsField } from './resolve-agent';

/** `agent` (from the Nexus tools' release on): the run's agent, whose Nexus tools the next link must know again. */
export const LoadPreferencesInputSchema = z.object({ user: z.string().min(1), agent: z.string().optional() });
export type LoadPreferencesInput = z.infer<typeof LoadPreferencesInputSchema>;

export const SavePreferenceInputSchema = z.object({ user: z.string().min(1), change: PreferenceChangeSchema });
export type SavePreferenceInput = z.input<typeof SavePreferenceInputSchema>;

/** The person's remembered choices, and the worker's approver registry (refreshed at every run link). */
export interface LoadPreferencesResult {
  rules: PreferenceRule[];
  approverKeys?: Record<string, string>;
  nexusTools?: NexusTargets;
}

/** Reads a person's remembered choices; a person without any has none, not an error. */
export function createLoadPreferences(deps: ActivityDeps) {
  return async function loadPreferences(raw: LoadPreferencesInput): Promise<LoadPreferencesResult> {
    const { user, agent } = LoadPreferencesInputSchema.parse(raw);
    return { rules: await readPreferences(deps.temporal(), user), approverKeys: deps.approverKeys, ...(agent ? nexusToolsField(deps, agent) : {}) };
  };
}

/** Records a choice with signal-with-start, so the first choice of a person creates their store. */
export function createSavePreference(deps: ActivityDeps) {
  return async function savePreference(raw: SavePreferenceInput): Promise<void> {
    const { user, change } = SavePreferenceInputSchema.parse(raw);
    await deps.temporal().workflow.signalWithStart(PREFERENCES_WORKFLOW_TYPE, {
      workflowId: preferencesWorkflowId(user),
      taskQueue: deps.taskQueue,
      args: [],
      signal: changePreferenceSignal,
      signalArgs: [change],
      staticSummary: `Approval preferences of ${user}`,
    });
  };
}
