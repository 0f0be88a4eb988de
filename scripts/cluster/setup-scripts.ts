// Runs docker-compose.yml's one-shot setup scripts (schema setup, namespace and search attributes)
// unchanged, with the tools they call put on PATH under the names the admin-tools image uses.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { ensureTemporalCli } from '../install-temporal.js';
import type { ComposeFile } from './compose-file';
import { setupScript } from './compose-services';
import { ClusterStartError } from './errors';
import type { TemporalBinaries } from './go-binaries';

/** A folder with `temporal-sql-tool` and `temporal` (the CLI), as in the `temporalio/admin-tools` image. */
export async function adminToolsPath(dir: string, binaries: TemporalBinaries): Promise<string> {
  await mkdir(dir, { recursive: true });
  await symlink(binaries.sqlTool, path.join(dir, 'temporal-sql-tool'));
  await symlink(ensureTemporalCli(), path.join(dir, 'temporal'));
  return dir;
}

/** Runs one service's script with its compose environment plus `overrides`; output goes to `logFile`. */
export function runSetupScript(
  compose: ComposeFile,
  name: 'temporal-schema-setup' | 'temporal-create-namespace',
  options: { toolsDir: string; overrides: Record<string, string>; logFile: string; timeoutMs?: number },
): Promise<void> {
  const { script, environment } = setupScript(compose, name);
  // The container's environment is only what compose gives it: the same here, plus PATH.
  const env = { PATH: `${options.toolsDir}:${process.env.PATH}`, HOME: process.env.HOME, ...environment, ...options.overrides };
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const tail: string[] = [];
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-euc', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000);
    const onData = (chunk: Buffer) => {
      log.write(chunk);
      tail.push(...chunk.toString().split('\n').filter(Boolean));
      tail.splice(0, Math.max(0, tail.length - 20));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      log.end();
      if (code === 0) resolve();
      else reject(new ClusterStartError(`docker-compose.yml's ${name} script failed (${signal ?? `exit ${code}`}). Its last output:\n${tail.join('\n')}`));
    });
  });
}
