import { type Command } from '../../client/cli-context';
import { stringFlag } from '../../client/approval-helpers';
import { changePreferenceSignal, preferencesWorkflowId } from '../../core/approvals/preference-messages';
import { describeScope, scopeKey, type PreferenceRule } from '../../core/approvals/preference-rules';
import { readPreferences } from '../../runtime/approvals/read-preferences';
import { NoSuchPreferenceError, UsageError } from '../../client/errors';
import { terminalSafe } from '../../client/terminal-safe';

/**
 * An "always" either lets its calls change the workspace or runs them read-only, and with `+network`
 * lets them use the network the run allows; a "never" runs nothing.
 */
const access = (rule: PreferenceRule) =>
  rule.preference === 'never' ? '' : `${rule.writes === true ? 'writes' : 'read-only'}${rule.network === true ? '+network' : ''}`;

const render = (user: string, rules: PreferenceRule[]) =>
  rules.length === 0
    ? `${user} has no remembered approval choices.`
    : [
        `Remembered approval choices of ${user}:`,
        ...rules.map(
          (r, i) =>
            `  #${i + 1}  ${r.preference.padEnd(6)} ${access(r).padEnd(rules.some((x) => x.network === true) ? 17 : 9)} ${terminalSafe(describeScope(r))}  ${r.at ?? ''}${r.fromWorkflowId ? `  (from ${r.fromWorkflowId})` : ''}`,
        ),
        'An "always" marked writes lets the calls it covers change the workspace; read-only ones run with it read-only; +network ones may use the network their run allows.',
        'Revoke one with --revoke #N (or its scope text), or every choice for a tool with --revoke TOOL.',
      ].join('\n');

/** The choices `--revoke` names: `#N`, a scope as listed (or its key), or a tool (all of its choices). */
function selected(rules: PreferenceRule[], what: string): PreferenceRule[] {
  const number = /^#(\d+)$/.exec(what);
  if (number) {
    const rule = rules[Number(number[1]) - 1];
    return rule ? [rule] : [];
  }
  const exact = rules.filter((r) => describeScope(r) === what || scopeKey(r) === what);
  return exact.length > 0 ? exact : rules.filter((r) => r.tool === what);
}

/** `agentctl preferences <user> [--revoke WHAT]`: lists or forgets "always"/"never" choices, with their scope. */
export const preferencesCommand: Command = {
  name: 'preferences',
  usage: 'agentctl preferences <user> [--revoke #N|SCOPE|TOOL] [--json]',
  summary: 'list a person\'s remembered always/never choices with their scope, or revoke one',
  async run(ctx) {
    const [user] = ctx.args.positionals;
    if (!user) throw new UsageError('preferences needs a user (the approver name the choices were made under)');
    const client = await ctx.client();
    const handle = client.workflow.getHandle(preferencesWorkflowId(user));
    const rules = await readPreferences(client, user);
    const what = stringFlag(ctx, 'revoke');
    if (!what) {
      // `writes` and `network` always present in --json, so a script need not know that a missing flag means false.
      ctx.print({ user, entries: rules.map((r) => ({ ...r, writes: r.writes === true, network: r.network === true, scope: describeScope(r) })) }, () => render(user, rules));
      return 0;
    }
    const revoked = selected(rules, what);
    if (revoked.length === 0) {
      const known = rules.map((r, i) => `#${i + 1} ${describeScope(r)}`).join('; ') || 'none';
      throw new NoSuchPreferenceError(`${user} has no remembered choice matching "${what}" (remembered: ${known}).`);
    }
    for (const rule of revoked) {
      await handle.signal(changePreferenceSignal, { tool: rule.tool, preference: 'revoke', match: rule.match, by: ctx.clientSettings.approver, at: new Date().toISOString() });
    }
    const remaining = rules.filter((r) => !revoked.includes(r));
    ctx.print(
      { user, revoked, entries: remaining },
      () => `Revoked ${revoked.map((r) => `"${r.preference}" for ${terminalSafe(describeScope(r))}`).join(', ')} (${user}). Runs that start from now on ask again.`,
    );
    return 0;
  },
};
