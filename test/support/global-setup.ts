// Starts one Temporal dev server for the whole test run and hands its address to test files.
// Set TEMPORAL_TEST_ADDRESS to run the suite against a server you started yourself instead.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import * as path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDevServer } from '../../scripts/temporal-dev-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Workers started by tests write a copy of each audit head outside the log's folder; without
  // this it would be the user's ~/.local/state. Test files (forked after this runs) inherit it.
  // Not under the system temp folder: tests put audit logs there, and head copies inside a log's
  // folder are refused. .scratch/ is the project's own ignored folder.
  const scratch = path.join(__dirname, '..', '..', '.scratch');
  await mkdir(scratch, { recursive: true });
  const headDir = process.env.AGENT_AUDIT_HEAD_DIR ? undefined : await mkdtemp(path.join(scratch, 'audit-heads-'));
  if (headDir) process.env.AGENT_AUDIT_HEAD_DIR = headDir;
  const removeHeadDir = async () => {
    if (headDir) await rm(headDir, { recursive: true, force: true });
  };
  const external = process.env.TEMPORAL_TEST_ADDRESS;
  if (external) {
    project.provide('temporalAddress', external);
    return removeHeadDir;
  }
  // startDevServer installs the CLI first if it is missing (see scripts/install-temporal.js).
  // Headless and in-memory: tests that need persistence across restarts start their own server.
  const server = await startDevServer({ headless: true });
  project.provide('temporalAddress', server.address);
  return async () => {
    await server.stop();
    await removeHeadDir();
  };
}
