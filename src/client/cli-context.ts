import type { Client } from '@temporalio/client';
import type { ClientSettings } from './client-settings';
import type { TemporalSettings } from '../runtime/config/worker-config';
import { connectClient } from './connect';
import { UsageError } from './errors';
import { terminalSafe } from './terminal-safe';

/** Parsed command line: positional arguments and `--flag` / `--flag value` options. */
export interface ParsedArgs {
  positionals: string[];
  /** Each flag's value; a flag given twice keeps its last value here. */
  flags: Record<string, string | boolean>;
  /** Every value of each flag that took one, in order, for the flags that may be given several times (`--history a --history b`). */
  values: Record<string, string[]>;
}

/** Flags that never take a value, so `--json run-1` keeps `run-1` positional. */
const BOOLEAN_FLAGS = new Set(['json', 'detach', 'always', 'never', 'always-tool', 'never-tool', 'follow-ups', 'network', 'help', 'yes', 'no-follow', 'all', 'signal', 'interactive', 'no-wait', 'force', 'hash-password', 'edit', 'no-thinking', 'live-model', 'no-cost', 'paused']);

export function parseArgs(argv: string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags: Record<string, string | boolean> = {};
  const values: Record<string, string[]> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (inline === undefined && (BOOLEAN_FLAGS.has(name) || i + 1 >= argv.length || argv[i + 1]!.startsWith('--'))) {
      flags[name] = true;
      continue;
    }
    const value = inline ?? argv[++i]!;
    flags[name] = value;
    (values[name] ??= []).push(value);
  }
  return { positionals, flags, values };
}

export interface CliContext {
  args: ParsedArgs;
  /** The Temporal part of `clientSettings` (where, which namespace and task queue, the codec). */
  settings: TemporalSettings;
  /** Every client setting, parsed once from the environment by the CLI entry (cli.ts). */
  clientSettings: ClientSettings;
  json: boolean;
  /** Connects on first use, so `agentctl help` works without a server. */
  client(): Promise<Client>;
  out(text: string): void;
  /** Prints `value` as JSON with --json, otherwise the human rendering. */
  print(value: unknown, human: () => string): void;
  close(): Promise<void>;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
}

export function createContext(args: ParsedArgs, clientSettings: ClientSettings): CliContext {
  const settings = clientSettings.temporal;
  let connection: Awaited<ReturnType<typeof connectClient>> | undefined;
  const json = args.flags.json === true;
  const out = (text: string) => process.stdout.write(`${text}\n`);
  return {
    args,
    settings,
    clientSettings,
    json,
    async client() {
      connection ??= await connectClient(settings, clientSettings.tracing);
      return connection.client;
    },
    out,
    print(value, human) {
      // JSON.stringify leaves DEL, C1 and bidi controls raw; escaping them keeps the JSON and its values.
      out(json ? terminalSafe(JSON.stringify(value, null, 2)) : human());
    },
    async close() {
      await connection?.close();
    },
    stdin: process.stdin,
    stdout: process.stdout,
  };
}

export interface Command {
  name: string;
  usage: string;
  summary: string;
  run(ctx: CliContext): Promise<number | void>;
}

/** The first positional argument as a workflow id, or a usage error that says where to find one. */
export function workflowIdArg(ctx: CliContext, verb: string): string {
  const [workflowId] = ctx.args.positionals;
  if (!workflowId) throw new UsageError(`${verb} needs a workflow id (see \`agentctl list\`)`);
  return workflowId;
}
