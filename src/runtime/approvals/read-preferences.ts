import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { PREFERENCES_MEMO_KEY, preferencesQuery, preferencesWorkflowId, toRules } from '../../core/approvals/preference-messages';
import type { PreferenceRule } from '../../core/approvals/preference-rules';

/**
 * A person's remembered choices, read from the preferences workflow's memo. `describe` is answered
 * by the server alone, so this works while no worker polls that workflow's task queue (a query would
 * hang until one does). Someone who never chose "always" or "never" has no workflow and no choices.
 * A workflow started before the memo mirror existed has no memo until its next change; it is asked
 * by query instead, which needs a worker. Entries of the first release come back as tool-wide rules.
 */
export async function readPreferences(client: Client, user: string): Promise<PreferenceRule[]> {
  const handle = client.workflow.getHandle(preferencesWorkflowId(user));
  try {
    const description = await handle.describe();
    const entries = description.memo?.[PREFERENCES_MEMO_KEY];
    if (Array.isArray(entries)) return toRules(entries);
    return description.status.name === 'RUNNING' ? toRules(await handle.query(preferencesQuery)) : [];
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return [];
    throw error;
  }
}
