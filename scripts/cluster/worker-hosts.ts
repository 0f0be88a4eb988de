// An agent worker on a simulated host: the worker image's CMD (the compiled `npm run worker`) run inside
// the host's network namespace, with its own hostname so Temporal shows which host ran what.
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { REPO_ROOT } from './compose-file';
import { killNamespace, namespacePids, type HostAddress } from './host-network';
import { startProcess, waitUntilReady, type ManagedProcess } from './processes';

export interface WorkerHost extends HostAddress {
  /** The worker's current process; replaced by `start()`. */
  readonly process: ManagedProcess;
  readonly logFile: string;
  isUp(): boolean;
  /** Starts the worker (again) and waits until it polls. */
  start(): Promise<void>;
  /** SIGKILLs every process in the host's namespace at once: the host dies, nothing drains. */
  kill(): Promise<void>;
  /** SIGTERM: the worker stops polling and lets running activities finish. */
  stop(): Promise<void>;
}

/** The worker image's CMD (see Dockerfile): the compiled `src/worker.ts`, built by `buildWorker` first. */
export const WORKER_COMMAND = ['node', 'dist/worker.js'];

/** Compiles src/ into dist/ as the image's build stage does (`npm run build`), once per cluster. */
export function buildWorker(): void {
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.js')], { cwd: REPO_ROOT, stdio: 'ignore' });
}

/** The line src/worker.ts prints once it polls. */
const POLLING = /^Worker polling task queue/;

export async function createWorkerHost(host: HostAddress, options: { env: Record<string, string>; logDir: string }): Promise<WorkerHost> {
  const logFile = path.join(options.logDir, `worker-${host.hostname}.log`);
  await mkdir(options.logDir, { recursive: true });
  let current: ManagedProcess | undefined;

  const spawnWorker = () =>
    startProcess(
      `worker on ${host.hostname}`,
      'ip',
      // unshare --uts gives the host its own hostname; `exec` keeps one process per step, so every
      // process of the worker is in the namespace and none is left outside when the host is killed.
      ['netns', 'exec', host.namespace, 'unshare', '--uts', 'sh', '-c', 'hostname "$0" && exec "$@"', host.hostname, ...WORKER_COMMAND],
      // Only what the container would get: compose's environment for the worker, plus PATH.
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/root', NODE_ENV: 'production', ...options.env }, logFile, readyPattern: POLLING },
    );

  const worker: WorkerHost = {
    ...host,
    logFile,
    get process() {
      if (!current) throw new Error(`the worker on ${host.hostname} was never started`);
      return current;
    },
    isUp: () => current?.isRunning() ?? false,
    async start() {
      current = spawnWorker();
      const started = current;
      await waitUntilReady([started], `the worker on ${host.hostname} to poll`, async () => started.ready, 120_000);
    },
    async kill() {
      killNamespace(host.namespace);
      await current?.exited;
      // Anything that was mid-exit when the list was taken.
      while (namespacePids(host.namespace).length > 0) {
        killNamespace(host.namespace);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      await current?.stop(30_000);
      killNamespace(host.namespace);
    },
  };
  return worker;
}
