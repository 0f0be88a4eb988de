// `agentctl approve --arguments '{…}'` and `--edit`: the whole new input for a parked call, written on
// the command line or in the person's editor. The run checks it against the tool's schema and its
// rules; here it only has to be a JSON object.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { CliContext } from './cli-context';
import { UsageError } from './errors';

function parseObject(text: string, from: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${from} is not JSON (${(error as Error).message}); give the whole new input of the call, e.g. '{"command": "ls"}'`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${from} must be a JSON object: the whole new input of the call`);
  return value as Record<string, unknown>;
}

/**
 * Opens `$VISUAL` or `$EDITOR` (else `vi`) on the call's arguments as pretty JSON and returns what the
 * person saved. The editor runs through the shell, so `EDITOR="code -w"` works. Undefined when the
 * person left the arguments as they were: that is a plain approval.
 */
export function editInEditor(input: unknown, env: NodeJS.ProcessEnv = process.env): Record<string, unknown> | undefined {
  const editor = env.VISUAL || env.EDITOR || 'vi';
  const dir = mkdtempSync(path.join(tmpdir(), 'agentctl-edit-'));
  const file = path.join(dir, 'arguments.json');
  const before = `${JSON.stringify(input ?? {}, null, 2)}\n`;
  try {
    writeFileSync(file, before, { mode: 0o600 });
    const result = spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'sh', file], { stdio: 'inherit', env });
    if (result.status !== 0) throw new UsageError(`the editor (${editor}) exited with ${result.status ?? result.signal}; nothing was sent`);
    const after = readFileSync(file, 'utf8');
    if (after.trim() === before.trim()) return undefined;
    return parseObject(after, 'the edited file');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The edited arguments the command line asks for, if any: `--arguments JSON`, or `--edit` with the call's current input. */
export function editedArgumentsFromCli(ctx: CliContext, input: () => unknown): Record<string, unknown> | undefined {
  const inline = ctx.args.flags.arguments;
  if (inline !== undefined && ctx.args.flags.edit) throw new UsageError('give either --arguments or --edit, not both');
  if (inline !== undefined) {
    if (typeof inline !== 'string') throw new UsageError("--arguments needs a JSON object, e.g. --arguments '{\"command\": \"ls\"}'");
    return parseObject(inline, '--arguments');
  }
  return ctx.args.flags.edit ? editInEditor(input()) : undefined;
}
