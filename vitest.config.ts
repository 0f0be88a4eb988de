import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files that run one after another in a reused child process (`isolate: false`): the workflow
 * tests, which each import the Temporal worker, the SDK and most of src/ (1.8 s of CPU per file when
 * every file gets a fresh process), and the pure ones of core/ and contract/ (0.4 s each); see
 * bench/results/suite.md. They share nothing else: each workflow test starts its own worker on its own
 * task queue and closes it. Files that change the process (its environment, `process.on` listeners)
 * keep a process of their own, as does the fuzzer; so do all other folders, not yet checked.
 */
const SHARED_PROCESS_DIRS = ['workflows', 'core', 'contract'];
const SHARED_PROCESS_FILES = SHARED_PROCESS_DIRS.map((dir) => `test/${dir}/**/*.test.ts`);
const OWN_PROCESS_FILES = [
  'test/core/approvals/shell/program-options-live.test.ts',
  'test/workflows/fuzz/**/*.test.ts',
  'test/workflows/budget-raise.test.ts',
  'test/workflows/take-step.test.ts',
  'test/workflows/trust-boundary/contained-round.test.ts',
  'test/workflows/trust-boundary/requester-audit.test.ts',
  'test/workflows/trust-boundary/sandboxed-shell.test.ts',
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
    // Each test file may run a Temporal worker next to the shared dev server; on a 2-core
    // machine more than two files at once only adds contention and flaky timeouts.
    maxWorkers: 2,
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
