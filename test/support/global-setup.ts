// Starts one Temporal dev server for the whole test run and hands its address to test files.
// Set TEMPORAL_TEST_ADDRESS to run the suite against a server you started yourself instead.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
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
  // Not under the system temp folder, nor in the checkout (which may itself be under /tmp): tests
  // put audit logs straight into tmpdir(), and head copies inside a log's folder are refused.
  const base = existsSync('/var/tmp') ? '/var/tmp' : path.join(__dirname, '..', '..', '.scratch');
  await mkdir(base, { recursive: true });
  const headDir = process.env.AGENT_AUDIT_HEAD_DIR ? undefined : await mkdtemp(path.join(base, 'durable-agent-audit-heads-'));
  if (headDir) process.env.AGENT_AUDIT_HEAD_DIR = headDir;
  // The workflow code, bundled once for every test file's workers (webpack takes 3-4 s of CPU each
  // time; over the suite that was minutes on 2 cores). Test files read it back (bundleAgentWorkflows).
  const bundleDir = await mkdtemp(path.join(base, 'durable-agent-test-bundle-'));
  const bundle = await bundleWorkflowCode({ workflowsPath: path.join(__dirname, '..', '..', 'src', 'workflows', 'index.ts'), logger: new DefaultLogger('WARN') });
  await writeFile(path.join(bundleDir, 'workflows.js'), bundle.code);
  process.env.DURABLE_AGENT_TEST_BUNDLE = path.join(bundleDir, 'workflows.js');
  const removeHeadDir = async () => {
    if (headDir) await rm(headDir, { recursive: true, force: true });
    await rm(bundleDir, { recursive: true, force: true });
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
