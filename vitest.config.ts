import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The cluster drill has its own command and config (npm run test:cluster, vitest.cluster.config.ts).
    exclude: [...configDefaults.exclude, 'test/**/*.cluster.test.ts'],
    // Worker threads segfault with Temporal's native core-bridge module; child processes do not.
    pool: 'forks',
    // Each test file may run a Temporal worker next to the shared dev server; on a 2-core
    // machine more than two files at once only adds contention and flaky timeouts.
    maxWorkers: 2,
    // Real workflows on a real server, with worker start-up (bundling) per file, need more than 5s.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // One dev server for the whole run: starting one per file would cost a second or two each.
    globalSetup: ['test/support/global-setup.ts'],
  },
});
