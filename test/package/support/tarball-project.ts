// What the packed-tarball tests share (tarball.test.ts, tarball-lowest.test.ts, tarball-quickstart.test.ts):
// the tarball itself, packed once per suite run (packedTarball), and the steps that make and drive a
// fresh user's project from it. Split from one file so that its three costly parts (a project at each
// end of the Temporal peer range, and the quickstart) can run on both of the suite's workers at once.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { expect } from 'vitest';
import { reply, toolCall, type FakeAnthropic } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';

export const REPO = path.join(__dirname, '..', '..', '..');

export interface Ran {
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; a failure carries the command's own output, so the test shows why. */
export function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 300_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} ${args.join(' ')} failed (${error.message.split('\n')[0]}):\n${stdout}\n${stderr}`));
        else resolve({ stdout, stderr });
      },
    );
  });
}

/** The version of a package this repository has installed, so the fresh project gets the same one (from npm's cache). */
export async function installedVersion(name: string): Promise<string> {
  return (JSON.parse(await readFile(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Declares `ms`'s types, which Temporal's `Duration` needs with skipLibCheck off (docs/library.md says why). */
const TYPES_MS = '@types/ms@2.1.0';

/**
 * The Temporal packages the package takes as peers (the optional ones left out), the one range it
 * names for them, and that range's two ends: its floor, and the highest version the registry serves in it.
 */
export async function temporalPeerRange(): Promise<{ names: string[]; range: string; lowest: string; highest: string }> {
  const manifest = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional?: boolean }> };
  const names = Object.keys(manifest.peerDependencies).filter((name) => name.startsWith('@temporalio/') && !manifest.peerDependenciesMeta[name]?.optional);
  const ranges = new Set(names.map((name) => manifest.peerDependencies[name]));
  if (ranges.size !== 1) throw new Error(`the Temporal peers name different ranges: ${[...ranges].join(', ')}`);
  const range = [...ranges][0]!;
  const lowest = /^\^(\d+\.\d+\.\d+)$/.exec(range)?.[1];
  if (!lowest) throw new Error(`expected a caret range for the Temporal peers, found ${range}`);
  const served = JSON.parse((await run('npm', ['view', `@temporalio/client@${range}`, 'version', '--json'], { cwd: REPO })).stdout) as string | string[];
  const numeric = (version: string) => version.split('.').map(Number);
  const highest = [served].flat().filter((version) => /^\d+\.\d+\.\d+$/.test(version)).sort((a, b) => {
    const [x, y] = [numeric(a), numeric(b)];
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  }).at(-1);
  if (!highest) throw new Error(`the registry serves no @temporalio/client in ${range}`);
  return { names, range, lowest, highest };
}

/**
 * A fresh project in `dir` (outside the repository, so nothing resolves through its node_modules):
 * test/package/consumer's code, the README's example and the library docs' snippets, the tarball, the
 * Temporal SDK pinned to `temporal` (the project's own dependency, as a user's would be) and `extra`;
 * then compiled with the consumer's tsconfig (strict, skipLibCheck off).
 */
export async function createProject(dir: string, tarball: string, temporal: { names: string[]; version: string }, extra: string[]): Promise<{ buildErrors: string[] }> {
  await mkdir(dir);
  await cp(path.join(__dirname, '..', 'consumer'), dir, { recursive: true });
  // The README's example is compiled with the project's own code, so it cannot drift from the API.
  await writeFile(path.join(dir, 'src', 'readme-example.ts'), readmeExample(await readFile(path.join(REPO, 'README.md'), 'utf8')));
  // So are the library docs' snippets (compiled, not run: they need a server and a real model).
  for (const snippet of await docSnippets()) await writeFile(path.join(dir, 'src', snippet.file), snippet.code);
  await writeFile(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'my-agents', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  const [zod, typescript, typesNode] = await Promise.all(['zod', 'typescript', '@types/node'].map(installedVersion));
  const sdk = temporal.names.map((name) => `${name}@${temporal.version}`);
  await run(
    'npm',
    ['install', tarball, `zod@${zod}`, `typescript@${typescript}`, `@types/node@${typesNode}`, TYPES_MS, ...sdk, ...extra, '--prefer-offline', '--no-audit', '--no-fund'],
    { cwd: dir, timeoutMs: 540_000 },
  );
  // tsc emits despite type errors; they are returned for a test to show, and dist/ is there for the others.
  const build = await run(process.execPath, [path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: dir }).then(
    (ran) => ran.stdout,
    (error: Error) => error.message,
  );
  return { buildErrors: build.split('\n').filter((line) => / error TS/.test(line)) };
}

/** The version of each Temporal package in a project, and any copy nested under durable-agent (there should be none). */
export async function temporalInstalled(dir: string, names: string[]): Promise<{ versions: Record<string, string>; nested: string[] }> {
  const versions: Record<string, string> = {};
  for (const name of names) versions[name] = (JSON.parse(await readFile(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  const nested = await readdir(path.join(dir, 'node_modules', 'durable-agent', 'node_modules', '@temporalio')).catch(() => []);
  return { versions, nested };
}

/**
 * Compiles a fresh ESM and a fresh CommonJS folder of the project (importing all three entries)
 * with `strict` and skipLibCheck off, and returns the files with errors and the errors' lines.
 */
export async function strictCompile(project: string, kinds: readonly ('esm' | 'cjs')[]): Promise<{ kind: string; files: string[]; errors: string[] }[]> {
  const tsc = path.join(project, 'node_modules', 'typescript', 'bin', 'tsc');
  const code = [
    "import { createAgentWorker, defineAgent, defineTool, ToolResult } from 'durable-agent';",
    "import { AgentClient } from 'durable-agent/client';",
    "import { startAgentTestEnvironment } from 'durable-agent/testing';",
    'export { createAgentWorker, defineAgent, defineTool, ToolResult, AgentClient, startAgentTestEnvironment };',
  ].join('\n');
  const results = [];
  for (const [kind, type, module] of [['esm', 'module', 'NodeNext'], ['cjs', 'commonjs', 'Node16']] as const) {
    if (!kinds.includes(kind)) continue;
    const dir = path.join(project, `strict-${kind}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ type }));
    const compilerOptions = { target: 'ES2022', module, moduleResolution: module, lib: ['ES2022'], types: ['node'], strict: true, skipLibCheck: false, noEmit: true };
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }));
    await writeFile(path.join(dir, 'index.ts'), code);
    const output = await run(process.execPath, [tsc, '-p', dir], { cwd: project }).then(
      (ran) => ran.stdout,
      (error: Error) => error.message,
    );
    const files = [...new Set(output.split('\n').map((line) => /^(\S+?)\(\d+,\d+\): error/.exec(line)?.[1]).filter((file): file is string => Boolean(file)))];
    results.push({ kind, files, errors: output.split('\n').filter((line) => / error TS/.test(line)) });
  }
  return results;
}

export interface Approved {
  workflowId: string;
  tool: string;
  input: unknown;
  decision: { applied: boolean; message: string };
  status: string;
  refunded: string[];
  auditLog: string;
}

/**
 * Runs the project's approve.js: a worker made with `createAgentWorker` (audit log on by default, here
 * in a folder of its own), a client made with `new AgentClient({ client, taskQueue })` from the
 * project's own `@temporalio/client`, one run whose refund the program approves; then checks the
 * audit log against the run's history with the project's `agentctl audit prove`.
 */
export async function approveInProject(project: string, fake: FakeAnthropic): Promise<{ approved: Approved; proof: Proof }> {
  const task = uniqueId('refund A-17');
  fake.script(task, [
    reply(toolCall('refund_order', { orderId: 'A-17' })),
    reply(toolCall('complete_task', { summary: 'refunded A-17', status: 'success', output: { refunded: ['A-17'] } })),
  ]);
  const scratch = await mkdtemp(path.join(tmpdir(), 'agent-approve-'));
  const auditDir = path.join(scratch, 'audit');
  const { AGENT_AUDIT_LOG: _log, ...rest } = process.env;
  const env = {
    ...rest,
    TEMPORAL_ADDRESS: temporalAddress(),
    TEMPORAL_TASK_QUEUE: uniqueId('q'),
    ANTHROPIC_API_KEY: 'test',
    ANTHROPIC_BASE_URL: fake.baseUrl,
    AGENT_WORKSPACE: path.join(scratch, 'workspace'),
    AGENT_AUDIT_DIR: auditDir,
  };
  try {
    const { stdout } = await run(process.execPath, ['dist/approve.js', task], { cwd: project, env, timeoutMs: 180_000 });
    const approved = JSON.parse(stdout.trim().split('\n').at(-1)!) as Approved;
    expect(path.dirname(approved.auditLog)).toBe(auditDir);
    // Exits 1, failing the run here with its table, when a side effect lacks its logged decision.
    const proof = JSON.parse((await run('npx', ['agentctl', 'audit', 'prove', approved.workflowId, '--json'], { cwd: project, env })).stdout) as Proof;
    return { approved, proof };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** What `agentctl audit prove --json` says, the parts these tests read. */
export interface Proof {
  ok: boolean;
  calls: { tool: string; decision?: string; ok: boolean }[];
  decisions: { tool: string; decision: string; approver?: string; ok: boolean }[];
}

/** The TypeScript block of the README's "Use it in your project" section. */
export function readmeExample(readme: string): string {
  const section = readme.split('\n## Use it in your project\n')[1]?.split('\n## ')[0] ?? '';
  const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!example) throw new Error('README.md has no ```ts block under "## Use it in your project"');
  return example;
}

/**
 * The ```ts blocks of the library docs that a user would paste: all of docs/library.md's, and those of
 * docs/guides/lifecycle.md that import the package (its others show shapes, not programs).
 */
export async function docSnippets(): Promise<{ file: string; code: string }[]> {
  const blocks = (doc: string) => [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const library = blocks(await readFile(path.join(REPO, 'docs', 'library.md'), 'utf8'));
  const lifecycle = blocks(await readFile(path.join(REPO, 'docs', 'guides', 'lifecycle.md'), 'utf8')).filter((code) => code.includes("from 'durable-agent'"));
  if (library.length < 8 || lifecycle.length < 1) throw new Error(`expected the docs' snippets, found ${library.length} in library.md and ${lifecycle.length} in lifecycle.md`);
  return [
    ...library.map((code, i) => ({ file: `docs-library-${i + 1}.ts`, code })),
    ...lifecycle.map((code, i) => ({ file: `docs-lifecycle-${i + 1}.ts`, code })),
  ];
}

/** Where the suite's global setup lets the package test files share one tarball (test/support/global-setup.ts). */
export const TEST_PACK_DIR_ENV = 'DURABLE_AGENT_TEST_PACK_DIR';

/** How long a test file waits for another one of the same run to finish packing. */
const PACK_WAIT_MS = 480_000;

/**
 * The tarball `npm pack` makes of this checkout (building dist/ through `prepack`: tens of CPU seconds).
 * In a suite run the first package test file to ask packs it into the run's folder and the others wait
 * for that one, so every file tests the same tarball of the same sources; a file run outside the
 * suite's setup packs into `work` itself.
 */
export async function packedTarball(work: string): Promise<string> {
  const shared = process.env[TEST_PACK_DIR_ENV];
  if (!shared) return pack(work);
  const done = path.join(shared, 'tarball');
  const failed = path.join(shared, 'failed');
  // mkdir is atomic: exactly one file of the run gets to pack.
  const packer = await mkdir(path.join(shared, 'packing')).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false;
      throw error;
    },
  );
  if (packer) {
    try {
      const tarball = await pack(shared);
      await writeFile(`${done}.partial`, tarball);
      await rename(`${done}.partial`, done);
      return tarball;
    } catch (error) {
      await writeFile(failed, (error as Error).message);
      throw error;
    }
  }
  const deadline = Date.now() + PACK_WAIT_MS;
  for (;;) {
    const tarball = await readFile(done, 'utf8').catch(() => undefined);
    if (tarball) return tarball;
    const failure = await readFile(failed, 'utf8').catch(() => undefined);
    if (failure !== undefined) throw new Error(`npm pack failed in another test file of this run:\n${failure}`);
    if (Date.now() > deadline) throw new Error(`another test file of this run did not finish packing the tarball within ${PACK_WAIT_MS / 1000} s (${shared})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function pack(into: string): Promise<string> {
  const out = await mkdtemp(path.join(into, 'pack-'));
  await run('npm', ['pack', '--pack-destination', out], { cwd: REPO });
  const name = (await readdir(out)).find((file) => file.endsWith('.tgz'));
  if (!name) throw new Error(`npm pack left no .tgz in ${out}`);
  return path.join(out, name);
}
