// The agentctl that tests run as a person would (test/client/agentctl-process.ts): the real
// bin/agentctl.js, beside a dist/ compiled from src/ once per suite run, so the binary takes the path it
// takes in an installed package (compiled JavaScript, no tsx). Through tsx each start cost the suite
// 1.0-1.2 s of CPU, compiled 0.5-0.6 s, and the suite starts agentctl some 200 times
// (bench/results/suite.md). The checkout's own path (src/ through tsx) keeps a test of its own:
// test/client/agentctl-checkout.test.ts.
//
// esbuild compiles each file on its own (no bundle), the layout dist/ has after `npm run build`, with
// what the code reads beside itself copied, as scripts/build.js copies it.
import { cp, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import * as path from 'node:path';

const REPO = path.join(__dirname, '..', '..');

/** Environment variable naming the compiled agentctl for test files (set by global-setup.ts). */
export const TEST_AGENTCTL_ENV = 'DURABLE_AGENT_TEST_AGENTCTL';

/**
 * Compiles src/ into a new folder under the checkout's .scratch/ (inside the repository, so the compiled
 * files resolve its node_modules) and returns bin/agentctl.js there, with `remove` to delete it all.
 */
export async function compileAgentctl(): Promise<{ bin: string; remove(): Promise<void> }> {
  const scratch = path.join(REPO, '.scratch');
  await mkdir(scratch, { recursive: true });
  const dir = await mkdtemp(path.join(scratch, 'test-agentctl-'));
  const src = path.join(REPO, 'src');
  const dist = path.join(dir, 'dist');
  const files = await readdir(src, { recursive: true, withFileTypes: true });
  const relative = files.filter((entry) => entry.isFile()).map((entry) => path.relative(src, path.join(entry.parentPath, entry.name)));
  const entryPoints = relative.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts')).map((file) => path.join(src, file));
  // Loaded here, not at the top: every test file that runs agentctl imports this module for the name below.
  const { build } = await import('esbuild');
  await build({ entryPoints, outdir: dist, outbase: src, format: 'cjs', platform: 'node', target: 'node20', tsconfig: path.join(REPO, 'tsconfig.json'), logLevel: 'error' });
  // What the code reads beside itself: the console's browser files, a JSON module, the Bash grammar.
  for (const file of relative.filter((name) => !name.endsWith('.ts') && !name.endsWith('.md'))) await cp(path.join(src, file), path.join(dist, file));
  const grammar = path.dirname(require.resolve('tree-sitter-bash/package.json'));
  await cp(path.join(grammar, 'tree-sitter-bash.wasm'), path.join(dist, 'core', 'approvals', 'shell', 'tree-sitter-bash.wasm'));
  await mkdir(path.join(dir, 'bin'));
  await cp(path.join(REPO, 'bin', 'agentctl.js'), path.join(dir, 'bin', 'agentctl.js'));
  return { bin: path.join(dir, 'bin', 'agentctl.js'), remove: () => rm(dir, { recursive: true, force: true }) };
}
