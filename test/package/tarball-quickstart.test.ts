// examples/quickstart built from the packed tarball (the suite run's one, support/tarball-project.ts)
// as a user's copy of it would be, depending on the package's version rather than on this checkout,
// and its own `npm test` passing against the suite's Temporal server. Split from tarball.test.ts so
// that its install runs beside the other package files' installs.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporalAddress } from '../support/temporal';
import { packedTarball, REPO, run } from './support/tarball-project';

describe('the packed tarball, installed into a fresh TypeScript project', () => {
  let work: string;
  let tarball: string;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'durable-agent-pack-quickstart-'));
    tarball = await packedTarball(work);
  }, 600_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
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
});
