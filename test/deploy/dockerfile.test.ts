import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, loadComposeFile } from './compose-file';

// The worker image cannot be built here (no Docker engine), so these checks tie the Dockerfile to
// what the compose file and package.json expect of it, which is where the two would drift apart.

const dockerfile = readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8');
const dockerignore = readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));

/** Instructions with line continuations joined and comments dropped, e.g. ['FROM', 'node:20']. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'))
  .map((line) => {
    const [keyword, ...rest] = line.split(/\s+/);
    return { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
  });

function argsOf(keyword: string): string[] {
  return instructions.filter((instruction) => instruction.keyword === keyword).map((instruction) => instruction.args);
}

describe('Dockerfile', () => {
  it('builds on the Node 20 slim Debian image, in a build stage and the image itself', () => {
    expect(argsOf('FROM')).toEqual(['node:20-bookworm-slim AS build', 'node:20-bookworm-slim']);
  });

  it('compiles in the build stage as `npm run build` does, and installs production dependencies only in the image, from the lockfile', () => {
    const runs = argsOf('RUN');
    expect(runs).toContain('npm run build');
    const imageRuns = runs.slice(runs.indexOf('npm run build') + 1);
    expect(imageRuns.some((run) => /npm ci\b.*--omit=dev/.test(run))).toBe(true);
    expect(argsOf('COPY')).toContain('--from=build /app/dist ./dist');
  });

  it('runs as a user other than root', () => {
    const user = argsOf('USER').pop();
    expect(user).toBeDefined();
    expect(user!.split(':')[0]).not.toMatch(/^(root|0)$/);
  });

  it('starts the compiled form of what `npm run worker` runs, on plain node', () => {
    const workerScript: string = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).scripts.worker;
    expect(workerScript).toBe('tsx src/worker.ts');
    const cmd: string[] = JSON.parse(argsOf('CMD').pop()!);
    // tsconfig.build.json compiles src/ (rootDir) into dist/ (outDir).
    expect(cmd).toEqual(['node', 'dist/worker.js']);
  });

  it('creates the mount point of every named volume the worker service uses', () => {
    const compose = loadComposeFile();
    const targets = (compose.services.worker!.volumes ?? [])
      .map(String)
      .filter((volume) => !volume.startsWith('.') && !volume.startsWith('/'))
      .map((volume) => volume.split(':')[1]!);
    expect(targets.length).toBeGreaterThan(0);
    const runs = argsOf('RUN').join('\n');
    for (const target of targets) {
      expect(runs, `${target} is not created (and chowned) in the image`).toMatch(
        new RegExp(`mkdir -p [^\\n]*${target}[^\\n]*chown [^\\n]*${target}`),
      );
    }
  });
});

describe('.dockerignore', () => {
  it('keeps local dependencies, Temporal dev-server state, workspaces and git out of the build context', () => {
    expect(dockerignore).toEqual(expect.arrayContaining(['node_modules', '.temporal', 'workspace', '.git']));
  });

  it('keeps .env files, which hold secrets, out of the build context', () => {
    expect(dockerignore).toEqual(expect.arrayContaining(['.env', '.env.*']));
  });
});
