// Starts one Temporal dev server for the whole test run and hands its address to test files.
// Set TEMPORAL_TEST_ADDRESS to run the suite against a server you started yourself instead.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import * as path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDevServer } from '../../scripts/temporal-dev-server.js';
import { compileAgentctl, TEST_AGENTCTL_ENV } from './compiled-agentctl';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
  }
}

interface SuiteResources {
  address: string;
  release(): Promise<void>;
}

interface Shared {
  resources: Promise<SuiteResources>;
  users: number;
}

/**
 * Every project of vitest.config.ts names this setup, and vitest runs it once per project in its own
 * process: the first call starts the server and bundles, later ones share them, and the last
 * teardown stops them. Kept on globalThis, as each project may load this module afresh.
 */
const SHARED = Symbol.for('durable-agent.test-suite-resources');
const holder = globalThis as { [SHARED]?: Shared };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const mine = (holder[SHARED] ??= { resources: startSuiteResources(), users: 0 });
  mine.users += 1;
  const { address } = await mine.resources;
  project.provide('temporalAddress', address);
  return async () => {
    mine.users -= 1;
    if (mine.users > 0) return;
    if (holder[SHARED] === mine) delete holder[SHARED];
    await (await mine.resources).release();
  };
}

async function startSuiteResources(): Promise<SuiteResources> {
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
  await writeFile(path.join(bundleDir, 'workflows.js'), withoutSourceMap(bundle.code));
  process.env.DURABLE_AGENT_TEST_BUNDLE = path.join(bundleDir, 'workflows.js');
  // The package's tarball, packed once per run by the first test/package file that needs it (the
  // build behind `npm pack` takes tens of CPU seconds); see test/package/support/tarball-project.ts.
  const packDir = await mkdtemp(path.join(base, 'durable-agent-test-pack-'));
  process.env.DURABLE_AGENT_TEST_PACK_DIR = packDir;
  // agentctl compiled once (support/compiled-agentctl.ts): tests start it some 200 times.
  const agentctl = await compileAgentctl();
  process.env[TEST_AGENTCTL_ENV] = agentctl.bin;
  const removeDirs = async () => {
    if (headDir) await rm(headDir, { recursive: true, force: true });
    await rm(bundleDir, { recursive: true, force: true });
    await rm(packDir, { recursive: true, force: true });
    await agentctl.remove();
  };
  const external = process.env.TEMPORAL_TEST_ADDRESS;
  if (external) return { address: external, release: removeDirs };
  // startDevServer installs the CLI first if it is missing (see scripts/install-temporal.js).
  // Headless and in-memory: tests that need persistence across restarts start their own server.
  const server = await startDevServer({ headless: true });
  return {
    address: server.address,
    release: async () => {
      await server.stop();
      await removeDirs();
    },
  };
}

/**
 * The bundle with an empty source map in place of its own (3.4 of its 5.5 MB). Every Worker.create
 * decodes, parses and re-encodes the inline map and compiles the whole text in the main thread: with the
 * map, 421 ms of CPU per worker, without it 370 (a probe creating 8 workers of each, twice), and the
 * suite creates hundreds. The SDK needs an inline map to be there, not a full one. What it costs: a
 * workflow's stack trace in a suite run names the bundle's lines, not src/; a test file run on its own
 * bundles for itself, with the map.
 */
function withoutSourceMap(code: string): string {
  const at = code.lastIndexOf('//# sourceMappingURL=data:');
  if (at < 0) return code;
  const empty = Buffer.from(JSON.stringify({ version: 3, file: 'workflow-bundle.js', sources: [], names: [], mappings: '' })).toString('base64');
  return `${code.slice(0, at)}//# sourceMappingURL=data:application/json;base64,${empty}\n`;
}
