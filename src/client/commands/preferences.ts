import { type Command } from '../cli-context';
import { defaultApprover, stringFlag } from '../approval-helpers';
import { changePreferenceSignal, preferencesWorkflowId, type PreferenceEntry } from '../../approvals/preference-messages';
import { readPreferences } from '../../approvals/read-preferences';
import { NoSuchPreferenceError, UsageError } from '../errors';

const render = (user: string, entries: PreferenceEntry[]) =>
  entries.length === 0
    ? `${user} has no remembered approval choices.`
    : [
        `Remembered approval choices of ${user}:`,
        ...entries.map((e) => `  ${e.tool.padEnd(20)} ${e.preference.padEnd(6)} ${e.at ?? ''}${e.fromWorkflowId ? `  (from ${e.fromWorkflowId})` : ''}`),
      ].join('\n');

/** `agentctl preferences <user> [--revoke TOOL]`: lists or forgets "always"/"never" choices. */
export const preferencesCommand: Command = {
  name: 'preferences',
  usage: 'agentctl preferences <user> [--revoke TOOL] [--json]',
  summary: 'list or revoke a person\'s remembered always/never choices',
  async run(ctx) {
    const [user] = ctx.args.positionals;
    if (!user) throw new UsageError('preferences needs a user (the approver name the choices were made under)');
    const client = await ctx.client();
    const handle = client.workflow.getHandle(preferencesWorkflowId(user));
    const entries = await readPreferences(client, user);
    const tool = stringFlag(ctx, 'revoke');
    if (!tool) {
      ctx.print({ user, entries }, () => render(user, entries));
      return 0;
    }
    const entry = entries.find((e) => e.tool === tool);
    if (!entry) {
      const known = entries.map((e) => e.tool).join(', ') || 'none';
      throw new NoSuchPreferenceError(`${user} has no remembered choice for ${tool} (remembered: ${known}).`);
    }
    await handle.signal(changePreferenceSignal, { tool, preference: 'revoke', by: defaultApprover(), at: new Date().toISOString() });
    const remaining = entries.filter((e) => e !== entry);
    ctx.print(
      { user, revoked: entry, entries: remaining },
      () => `Revoked "${entry.preference}" for ${tool} (${user}). Runs that start from now on ask again.`,
    );
    return 0;
  },
};
