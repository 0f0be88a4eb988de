import { type Command } from '../../client/cli-context';
import { createApproverKey, type CreatedApproverKey } from '../../client/approver-keys';
import { UsageError } from '../../client/errors';

const render = (key: CreatedApproverKey) =>
  [
    `Created an Ed25519 key pair for approver ${key.name}.`,
    `Private key: ${key.privateKeyPath} (mode 0600; keep it on this machine, never share it)`,
    '',
    "Merge this entry into the JSON object in the worker's AGENT_APPROVERS_FILE:",
    JSON.stringify(key.registryEntry, null, 2),
  ].join('\n');

/**
 * `agentctl keys create <name>`: makes an approver's key pair. It is purely local, so it never
 * connects to Temporal: a person can make their key before any server or worker exists.
 */
export const keysCommand: Command = {
  name: 'keys',
  usage: 'agentctl keys create <name> [--force] [--json]   (keys go to $AGENT_KEYS_DIR, else ${XDG_CONFIG_HOME:-~/.config}/durable-agent/keys)',
  summary: 'make an approver key pair for signed decisions (prints the entry for AGENT_APPROVERS_FILE)',
  async run(ctx) {
    const [subcommand, name, ...extra] = ctx.args.positionals;
    if (subcommand !== 'create') {
      throw new UsageError(subcommand ? `Unknown keys subcommand "${subcommand}"; the only one is "create".` : 'keys needs a subcommand: create');
    }
    if (!name || extra.length > 0) throw new UsageError('keys create needs exactly one approver name');
    const key = createApproverKey(name, { dir: ctx.clientSettings.keysDir, force: ctx.args.flags.force === true });
    ctx.print(key, () => render(key));
    return 0;
  },
};
