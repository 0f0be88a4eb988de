import { z } from 'zod';
import { analyzeShellCommand } from '../../shell/analyze-shell';
import { ProcessStartError } from '../../../contract/errors';
import { CommandCgroupError, SandboxEnforcementError, ShellMissingError } from '../sandbox/errors';
import type { ProcessRunResult } from '../sandbox/process-runner';
import { defineTool } from '../tool-definition';
import { ToolResult } from '../../../contract/tool-result';
import { capOutput } from '../output-limits';

const DEFAULT_TIMEOUT_SECONDS = 60;
const MAX_TIMEOUT_SECONDS = 600;
const OUTPUT_LIMIT = 12_000;

/**
 * Runs a command with `bash --noprofile --norc -c` in the workspace root through the worker's
 * process runner: a clean environment (no worker secrets), the agent's limits, and under bwrap a
 * sandbox where the workspace is the only host folder that can be writable, and only when the
 * call's permission says it may write; protected paths stay read-only unless a person approved the
 * call. Without bwrap (mode none) it is a real shell on the host, so only calls a person approved
 * run there.
 */
export const shellTool = defineTool({
  name: 'shell',
  description:
    'Run a shell command (bash -c) in the workspace root. Returns the exit code and the combined output (capped). ' +
    'Runs sandboxed when the worker supports it: only the workspace can be writable (and only when the call ' +
    'was allowed to write), the rest of the system is read-only or hidden, CPU time, memory, file size and ' +
    'processes are limited, /tmp is private, there is no network access unless it was allowed, and background ' +
    'processes are stopped when the command ends. ' +
    `Times out after timeoutSeconds (default ${DEFAULT_TIMEOUT_SECONDS}, max ${MAX_TIMEOUT_SECONDS}).`,
  scope: 'execute',
  // A command may do anything once; after a crash it is never started a second time.
  idempotent: false,
  subjectArgument: 'command',
  // The parsed command is what the approval rules judge: every simple command in it, not a string.
  analyze: (input, context) => analyzeShellCommand(input.command, { workspaceRoot: context.workspaceRoot }),
  inputSchema: z.object({
    command: z.string().min(1).describe('The command line to run'),
    timeoutSeconds: z.number().int().min(1).max(MAX_TIMEOUT_SECONDS).optional(),
  }),
  async execute(input, context) {
    const timeoutMs = (input.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
    // Heartbeats let Temporal notice a dead worker within the heartbeat timeout instead of waiting
    // for the whole start-to-close timeout of a long command.
    const beat = setInterval(() => context.heartbeat(), 1_000);
    try {
      const result = await context.processes.run({
        command: input.command,
        workspace: context.workspaceRoot,
        hiddenPaths: [...context.hiddenPaths],
        network: context.network,
        permission: context.permission ?? { by: 'rule', writes: false },
        timeoutMs,
        signal: context.signal,
        outputLimit: OUTPUT_LIMIT,
        // The walk of a large workspace before and after the command reports its progress here.
        heartbeat: context.heartbeat,
      });
      return describeResult(result, timeoutMs);
    } catch (error) {
      if (error instanceof ProcessStartError) return ToolResult.error(`Could not start the command: ${error.message}`);
      if (error instanceof SandboxEnforcementError || error instanceof ShellMissingError || error instanceof CommandCgroupError) return ToolResult.error(error.message);
      throw error;
    } finally {
      clearInterval(beat);
    }
  },
});

/** What the model sees: the status, any limit it ran into or protected path it was refused, the output. */
function describeResult(result: ProcessRunResult, timeoutMs: number): ToolResult {
  const shown = capOutput(result.output, OUTPUT_LIMIT, 'redirect output to a file and search it');
  const notes = [
    ...(result.limitHit ? [result.limitHit] : []),
    ...(result.removedProtectedPaths.length > 0
      ? [
          `The command created protected paths it may not write without a person's approval; they were removed: ${result.removedProtectedPaths.join(', ')}.`,
        ]
      : []),
  ];
  const head = notes.length > 0 ? `${notes.join('\n')}\n` : '';
  // A cancelled call's result is seldom read (the run stopped it), but when it is, it must not read
  // as the command's own failure: before the spawn there is no exit code at all.
  if (result.aborted) {
    const status = result.exitCode ?? result.signal;
    if (status === null) return ToolResult.error('The call was cancelled before its command started; nothing ran.');
    return ToolResult.error(`exit code ${status}\nThe call was cancelled; its command was killed.\n${head}${shown}`);
  }
  if (result.timedOut) {
    return ToolResult.error(`Command timed out after ${timeoutMs / 1000}s and was killed (timeoutSeconds).\n${head}${shown}`);
  }
  if (result.exitCode === 0 && notes.length === 0) return ToolResult.success(`exit code 0\n${shown}`);
  return ToolResult.error(`exit code ${result.exitCode ?? result.signal}\n${head}${shown}`);
}
