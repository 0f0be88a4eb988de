// Starts one Temporal dev server for the whole test run and hands its address to test files.
// Set TEMPORAL_TEST_ADDRESS to run the suite against a server you started yourself instead.
import type { TestProject } from 'vitest/node';
import { startDevServer } from '../../scripts/temporal-dev-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.TEMPORAL_TEST_ADDRESS;
  if (external) {
    project.provide('temporalAddress', external);
    return async () => undefined;
  }
  // startDevServer installs the CLI first if it is missing (see scripts/install-temporal.js).
  // Headless and in-memory: tests that need persistence across restarts start their own server.
  const server = await startDevServer({ headless: true });
  project.provide('temporalAddress', server.address);
  return () => server.stop();
}
