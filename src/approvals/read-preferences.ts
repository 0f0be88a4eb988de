import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { PREFERENCES_MEMO_KEY, preferencesWorkflowId, type PreferenceEntry } from './preference-messages';

/**
 * A person's remembered choices, read from the preferences workflow's memo. `describe` is answered
 * by the server alone, so this works while no worker polls that workflow's task queue (a query would
 * hang until one does). Someone who never chose "always" or "never" has no workflow and no choices.
 */
export async function readPreferences(client: Client, user: string): Promise<PreferenceEntry[]> {
  try {
    const description = await client.workflow.getHandle(preferencesWorkflowId(user)).describe();
    const entries = description.memo?.[PREFERENCES_MEMO_KEY];
    return Array.isArray(entries) ? (entries as PreferenceEntry[]) : [];
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return [];
    throw error;
  }
}
