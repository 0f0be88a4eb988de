// The Temporal server, its SQL tool and the Web UI server, built once from the Go module proxy and
// kept under .cluster/ (gitignored). Building takes minutes on 2 cores; later starts reuse them.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { REPO_ROOT } from './compose-file';
import { ClusterBuildError } from './errors';
import { TEMPORAL_SERVER_VERSION, TEMPORAL_UI_VERSION } from './versions';

export const CLUSTER_DIR = path.join(REPO_ROOT, '.cluster');

export interface TemporalBinaries {
  /** Named as in the `temporalio/server` image. */
  server: string;
  /** Named as in the `temporalio/admin-tools` image, where compose's schema script calls it. */
  sqlTool: string;
  ui: string;
  /** The server module's source in the Go module cache: its schema files live here. */
  serverModuleDir: string;
}

const SERVER_MODULE = 'go.temporal.io/server';
const UI_MODULE = 'github.com/temporalio/ui-server/v2';

// -mod=mod lets `go` resolve what the module needs; GOTOOLCHAIN=local stops it from trying to
// download a newer Go when a module asks for one (it fails clearly instead).
const goEnv = (extra: NodeJS.ProcessEnv = {}) => ({ ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local', ...extra });

function go(args: string[], what: string, options: { cwd?: string; env?: NodeJS.ProcessEnv; log?: (line: string) => void } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('go', args, { cwd: options.cwd, env: options.env ?? goEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    const stderr: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        stderr.push(line);
        options.log?.(line);
      }
    });
    child.once('error', (error) =>
      reject(new ClusterBuildError(`Cannot ${what}: \`go\` could not be run (${error.message}). Install Go (https://go.dev/doc/install) and put it on PATH.`)),
    );
    child.once('exit', (code) => {
      if (code === 0) return resolve(stdout);
      reject(new ClusterBuildError(`Could not ${what} (go ${args.join(' ')} exited with ${code}):\n${stderr.slice(-20).join('\n')}`));
    });
  });
}

/** Downloads a module into the module cache (if needed) and returns its folder there. */
async function moduleDir(module: string, version: string): Promise<string> {
  const info = JSON.parse(await go(['mod', 'download', '-json', `${module}@${version}`], `download ${module}@${version}`)) as { Dir?: string };
  if (!info.Dir) throw new ClusterBuildError(`go mod download gave no folder for ${module}@${version}`);
  return info.Dir;
}

async function buildServer(binDir: string, log: (line: string) => void): Promise<void> {
  // A fresh clone has no .cluster folder yet.
  await mkdir(CLUSTER_DIR, { recursive: true });
  const gobin = await mkdtemp(path.join(CLUSTER_DIR, 'gobin-'));
  try {
    const packages = ['cmd/server', 'cmd/tools/sql'].map((pkg) => `${SERVER_MODULE}/${pkg}@v${TEMPORAL_SERVER_VERSION}`);
    await go(['install', ...packages], `build the Temporal server v${TEMPORAL_SERVER_VERSION}`, { env: goEnv({ GOBIN: gobin }), log });
    await mkdir(binDir, { recursive: true });
    await rename(path.join(gobin, 'server'), path.join(binDir, 'temporal-server'));
    await rename(path.join(gobin, 'sql'), path.join(binDir, 'temporal-sql-tool'));
  } finally {
    await rm(gobin, { recursive: true, force: true });
  }
}

/**
 * The UI server's go.mod has a `replace` directive, which `go install module@version` refuses. So
 * its main package is built inside a small module of ours that requires it and repeats its
 * replacements; the UI's compiled assets are embedded in the module, nothing else is fetched.
 */
async function buildUi(binary: string, log: (line: string) => void): Promise<void> {
  const source = await moduleDir(UI_MODULE, `v${TEMPORAL_UI_VERSION}`);
  const replaces = (await readFile(path.join(source, 'go.mod'), 'utf8')).split('\n').filter((line) => line.startsWith('replace '));
  const work = path.join(CLUSTER_DIR, 'build', `temporal-ui-${TEMPORAL_UI_VERSION}`);
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  await copyFile(path.join(source, 'cmd', 'server', 'main.go'), path.join(work, 'main.go'));
  await writeFile(
    path.join(work, 'go.mod'),
    ['module durable-agent/temporal-ui', '', 'go 1.23', '', `require ${UI_MODULE} v${TEMPORAL_UI_VERSION}`, '', ...replaces, ''].join('\n'),
  );
  await go(['build', '-o', binary, '.'], `build the Temporal Web UI v${TEMPORAL_UI_VERSION}`, { cwd: work, log });
}

/** Builds whatever is missing and returns where everything is. */
export async function ensureTemporalBinaries(log: (line: string) => void = () => undefined): Promise<TemporalBinaries> {
  const binDir = path.join(CLUSTER_DIR, 'bin', `temporal-${TEMPORAL_SERVER_VERSION}`);
  const server = path.join(binDir, 'temporal-server');
  const sqlTool = path.join(binDir, 'temporal-sql-tool');
  const ui = path.join(CLUSTER_DIR, 'bin', `temporal-ui-${TEMPORAL_UI_VERSION}`, 'temporal-ui');
  if (!existsSync(server) || !existsSync(sqlTool)) {
    log(`Building the Temporal server v${TEMPORAL_SERVER_VERSION} and its SQL tool from the Go module proxy (once; about 6-10 minutes on 2 cores)...`);
    await buildServer(binDir, log);
  }
  if (!existsSync(ui)) {
    log(`Building the Temporal Web UI v${TEMPORAL_UI_VERSION} from the Go module proxy (once; under a minute)...`);
    await buildUi(ui, log);
  }
  return { server, sqlTool, ui, serverModuleDir: await moduleDir(SERVER_MODULE, `v${TEMPORAL_SERVER_VERSION}`) };
}
