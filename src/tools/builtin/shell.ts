import { z } from 'zod';
import { analyzeShellCommand } from '../../approvals/shell/analyze-shell';
import { ProcessStartError } from '../../errors';
import { defineTool } from '../tool-definition';
import { ToolResult } from '../tool-result';
import { capOutput } from '../output-limits';

const DEFAULT_TIMEOUT_SECONDS = 60;
const MAX_TIMEOUT_SECONDS = 600;
const OUTPUT_LIMIT = 12_000;

/**
 * Runs a command with `sh -c` in the workspace root through the worker's process runner: a clean
 * environment (no worker secrets), and under bwrap a sandbox where the workspace is the only
 * writable host folder and the network is off unless the call allows it. Without bwrap (mode none)
 * it is still a real shell on the host, which is why the default approval policy asks a person
 * before any `shell` call either way.
 */
export const shellTool = defineTool({
  name: 'shell',
  description:
    'Run a shell command (sh -c) in the workspace root. Returns the exit code and the combined output (capped). ' +
    'Runs sandboxed when the worker supports it: only the workspace is writable, the rest of the system is ' +
    'read-only or hidden, /tmp is private, there is no network access unless it was allowed, and background ' +
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
        timeoutMs,
        signal: context.signal,
        outputLimit: OUTPUT_LIMIT,
      });
      const shown = capOutput(result.output, OUTPUT_LIMIT, 'redirect output to a file and search it');
      if (result.timedOut) {
        return ToolResult.error(`Command timed out after ${timeoutMs / 1000}s and was killed.\n${shown}`);
      }
      if (result.exitCode === 0) return ToolResult.success(`exit code 0\n${shown}`);
      return ToolResult.error(`exit code ${result.exitCode ?? result.signal}\n${shown}`);
    } catch (error) {
      if (error instanceof ProcessStartError) return ToolResult.error(`Could not start the command: ${error.message}`);
      throw error;
    } finally {
      clearInterval(beat);
    }
  },
});
