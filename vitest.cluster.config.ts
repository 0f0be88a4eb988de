import { defineConfig } from 'vitest/config';

// `npm run test:cluster`: the cluster drill (test/cluster/*.cluster.test.ts). It starts its own
// PostgreSQL, Temporal server nodes and worker hosts in network namespaces, so it needs root and the
// Go binaries (built on first use), and no dev server. It keeps its figures in
// .cluster/drill-figures.md and its processes' logs in .cluster/drill-logs/.
export default defineConfig({
  test: {
    include: ['test/cluster/**/*.cluster.test.ts'],
    // Temporal's native module needs forks (see vitest.config.ts); one file at a time, because
    // each cluster owns fixed network names.
    pool: 'forks',
    maxWorkers: 1,
    // Starting the cluster can include building the Go binaries (minutes) the first time.
    hookTimeout: 20 * 60_000,
    testTimeout: 10 * 60_000,
  },
});
