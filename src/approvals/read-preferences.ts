import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { PREFERENCES_MEMO_KEY, preferencesQuery, preferencesWorkflowId, type PreferenceEntry } from './preference-messages';

/**
 * A person's remembered choices, read from the preferences workflow's memo. `describe` is answered
 * by the server alone, so this works while no worker polls that workflow's task queue (a query would
 * hang until one does). Someone who never chose "always" or "never" has no workflow and no choices.
 * A workflow started before the memo mirror existed has no memo until its next change; it is asked
 * by query instead, which needs a worker.
 */
export async function readPreferences(client: Client, user: string): Promise<PreferenceEntry[]> {
  const handle = client.workflow.getHandle(preferencesWorkflowId(user));
  try {
    const description = await handle.describe();
    const entries = description.memo?.[PREFERENCES_MEMO_KEY];
    if (Array.isArray(entries)) return entries as PreferenceEntry[];
    return description.status.name === 'RUNNING' ? await handle.query(preferencesQuery) : [];
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return [];
    throw error;
  }
}
