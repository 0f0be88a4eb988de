import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files that run one after another in a reused child process (`isolate: false`). Each of these
 * files imports the Temporal worker, client, SDK and much of src/ (1.8 s of CPU per file when every
 * file gets a fresh process; 0.4 s for a pure core file); sharing the process pays that once per
 * worker instead (bench/results/suite.md). They share nothing else: each test starts its own Temporal
 * worker on its own task queue, its own console, fake API and folders, and closes them; spies and
 * environment changes are restored by the file that makes them.
 */
const SHARED_PROCESS_DIRS = ['workflows', 'core', 'contract', 'runtime', 'client', 'console', 'cli', 'testing', 'scripts', 'bench', 'deploy', 'worker'];
const SHARED_PROCESS_FILES = SHARED_PROCESS_DIRS.map((dir) => `test/${dir}/**/*.test.ts`);
/**
 * Files of those folders that keep a process of their own, because they change something of the
 * process that a later file in it would meet:
 */
const OWN_PROCESS_FILES = [
  // change environment variables or add process.on listeners for the rest of their process
  'test/core/approvals/shell/program-options-live.test.ts',
  'test/workflows/budget-raise.test.ts',
  'test/workflows/take-step.test.ts',
  'test/workflows/trust-boundary/contained-round.test.ts',
  'test/workflows/trust-boundary/requester-audit.test.ts',
  'test/workflows/trust-boundary/sandboxed-shell.test.ts',
  // the fuzzer's files (own budget and seeds)
  'test/workflows/fuzz/**/*.test.ts',
  // delete AGENT_AUDIT_HEAD_DIR (the suite's, from global-setup.ts) after each test instead of restoring it
  'test/runtime/audit/audit-chain.test.ts',
  'test/runtime/activities/record-audit.test.ts',
  'test/client/audit-command.test.ts',
  // mocks a src module (vi.mock), which a shared module graph would carry into later files
  'test/console/auth/authenticator.test.ts',
  // installs the Temporal runtime with a Prometheus exporter: only possible before anything else made one
  'test/runtime/observability/worker-metrics.test.ts',
  // register a global OpenTelemetry tracer provider for their process
  'test/runtime/observability/tracing.test.ts',
  'test/runtime/observability/otlp-export.test.ts',
  // command cgroups are named after the test process's pid, and cgroup detection (which may move the
  // process into a cgroup of its own) runs once per process
  'test/runtime/tools/sandbox/cgroups/**/*.test.ts',
  'test/runtime/worker-setup/tool-process-runner.test.ts',
  // a stress test with a floor of 5,000 calls in 30 s: after many files in a shared process it made
  // 885 and 4,575 (2 runs of 2, load 20-30), so it keeps a process (and event loop) of its own
  'test/runtime/tools/file-tools-race.test.ts',
  // starts 1,500 bash processes. Node forks to start a process, copying the page tables of the whole
  // parent: from a shared process grown to 1-1.5 GB a start costs some 37 ms of CPU, from a fresh one
  // 0.5 ms (bench/results/suite.md). Alone the file takes 5 s; in a shared process it took 73-87 s.
  'test/core/approvals/shell/bash-differential.test.ts',
];
// The cluster drill has its own command and config (npm run test:cluster, vitest.cluster.config.ts).
const NEVER = [...configDefaults.exclude, 'test/**/*.cluster.test.ts'];

/** What every project below runs with (each says so itself: a project that extends this config would add its lists to the root's). */
const PER_PROJECT: { pool: 'forks'; testTimeout: number; hookTimeout: number; globalSetup: string[] } = {
  // Worker threads segfault with Temporal's native core-bridge module; child processes do not.
  pool: 'forks',
  // Real workflows on a real server, with worker start-up (bundling) per file, need more than 5s.
  testTimeout: 120_000,
  hookTimeout: 120_000,
  // One dev server for the whole run: starting one per file would cost a second or two each.
  // Both projects name it; the second gets the first one's server (global-setup.ts).
  globalSetup: ['test/support/global-setup.ts'],
};

export default defineConfig({
  test: {
    // Every file `npm test` runs (test/docs reads these); the projects below split them between them.
    include: ['test/**/*.test.ts'],
    exclude: NEVER,
    ...PER_PROJECT,
    // Four files at once on 2 cores: the suite waits more than it computes (real timers, heartbeat
    // timeouts, installs, schedule ticks). Measured on the project's 2-core machine
    // (bench/results/suite.md): 2 workers 977 s; 4 workers 708 s, 1,275 CPU seconds (1.8 cores busy);
    // 5 workers 713 s, with more contention and a timing test failing. So 4.
    maxWorkers: 4,
    projects: [
      {
        test: { ...PER_PROJECT, name: 'own-process', include: ['test/*.test.ts', `test/!(${SHARED_PROCESS_DIRS.join('|')})/**/*.test.ts`, ...OWN_PROCESS_FILES], exclude: NEVER, isolate: true },
      },
      {
        test: { ...PER_PROJECT, name: 'shared-process', include: SHARED_PROCESS_FILES, exclude: [...NEVER, ...OWN_PROCESS_FILES], isolate: false },
      },
    ],
  },
});
