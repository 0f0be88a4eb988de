import { spawn } from 'node:child_process';
import { z } from 'zod';
import { defineTool } from '../tool-definition';
import { ToolResult } from '../tool-result';
import { capOutput } from '../output-limits';

const DEFAULT_TIMEOUT_SECONDS = 60;
const MAX_TIMEOUT_SECONDS = 600;
const OUTPUT_LIMIT = 12_000;

/**
 * Runs a command with `sh -c` in the workspace root. The working directory is the workspace, but a
 * shell is not a sandbox: a command can reach outside it. That is why the default approval policy
 * asks a person before any `shell` call.
 */
export const shellTool = defineTool({
  name: 'shell',
  description:
    'Run a shell command (sh -c) in the workspace root. Returns the exit code and the combined output (capped). ' +
    `Times out after timeoutSeconds (default ${DEFAULT_TIMEOUT_SECONDS}, max ${MAX_TIMEOUT_SECONDS}).`,
  scope: 'execute',
  inputSchema: z.object({
    command: z.string().min(1).describe('The command line to run'),
    timeoutSeconds: z.number().int().min(1).max(MAX_TIMEOUT_SECONDS).optional(),
  }),
  execute(input, context) {
    const timeoutMs = (input.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
    return new Promise<ToolResult>((resolve) => {
      const child = spawn('sh', ['-c', input.command], {
        cwd: context.workspaceRoot,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const collect = (chunk: Buffer) => {
        if (output.length < OUTPUT_LIMIT * 2) output += chunk.toString('utf8');
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      let timedOut = false;
      const killGroup = () => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // The process group is already gone.
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup();
      }, timeoutMs);
      // Heartbeats let Temporal notice a dead worker within the heartbeat timeout instead of waiting
      // for the whole start-to-close timeout of a long command.
      const beat = setInterval(() => context.heartbeat(), 1_000);
      const onAbort = () => killGroup();
      context.signal.addEventListener('abort', onAbort, { once: true });
      const finish = (result: ToolResult) => {
        clearTimeout(timer);
        clearInterval(beat);
        context.signal.removeEventListener('abort', onAbort);
        resolve(result);
      };
      child.on('error', (error) => finish(ToolResult.error(`Could not start the command: ${error.message}`)));
      child.on('close', (code, signal) => {
        const shown = capOutput(output, OUTPUT_LIMIT, 'redirect output to a file and search it');
        if (timedOut) {
          finish(ToolResult.error(`Command timed out after ${timeoutMs / 1000}s and was killed.\n${shown}`));
        } else if (code === 0) {
          finish(ToolResult.success(`exit code 0\n${shown}`));
        } else {
          finish(ToolResult.error(`exit code ${code ?? signal}\n${shown}`));
        }
      });
    });
  },
});
