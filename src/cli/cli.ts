import { WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { ClientSettingsError, parseClientSettings, type ClientSettings } from '../client/client-settings';
import { createContext, parseArgs } from '../client/cli-context';
import { commands } from './commands';
import { UsageError } from '../client/errors';
import { terminalSafe } from '../client/terminal-safe';

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'agentctl: run and steer durable agent runs on Temporal',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Environment: TEMPORAL_ADDRESS (localhost:7233), TEMPORAL_NAMESPACE (default), TEMPORAL_TASK_QUEUE (agents),',
    '  TEMPORAL_API_KEY, TEMPORAL_TLS*, TEMPORAL_PROFILE + TEMPORAL_CONFIG_FILE (Temporal profiles),',
    '  AGENT_ENCRYPTION_KEY / AGENT_ENCRYPTION_OLD_KEYS (payload encryption; see docs/guides/deploy.md).',
    'Run `agentctl <verb> --help` for a verb\'s usage.',
  ].join('\n');
}

/** Runs one CLI invocation and returns the exit code; errors become one clear line on stderr. */
export async function main(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (!verb || verb === 'help' || verb === '--help') {
    process.stdout.write(`${help()}\n`);
    return verb ? 0 : 2;
  }
  const command = commands.find((c) => c.name === verb);
  if (!command) {
    process.stderr.write(`Unknown command "${verb}".\n\n${help()}\n`);
    return 2;
  }
  const args = parseArgs(rest);
  if (args.flags.help) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  // The environment is read here, once, for every command; a bad value stops before anything connects.
  let settings: ClientSettings;
  try {
    settings = parseClientSettings(process.env);
  } catch (error) {
    if (!(error instanceof ClientSettingsError)) throw error;
    process.stderr.write(`${terminalSafe(error.message)}\n`);
    return 2;
  }
  const ctx = createContext(args, settings);
  try {
    return (await command.run(ctx)) ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\nUsage: ${command.usage}\n`);
      return 2;
    }
    if (error instanceof WorkflowNotFoundError) {
      process.stderr.write(`Unknown run: ${error.workflowId ?? ctx.args.positionals[0]}. List runs with \`agentctl list\`.\n`);
      return 1;
    }
    if (error instanceof WorkflowFailedError) {
      const cause = error.cause as (Error & { type?: string }) | undefined;
      process.stderr.write(`Run failed${cause?.type ? ` (${cause.type})` : ''}: ${terminalSafe(cause?.message ?? error.message)}\n`);
      return 1;
    }
    process.stderr.write(`${terminalSafe(error instanceof Error ? error.message : String(error))}\n`);
    return 1;
  } finally {
    await ctx.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
}
