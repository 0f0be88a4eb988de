// The compatibility check of `npm run api:check`: an API that stops accepting a call the last release
// accepted fails, whatever its report says; additions pass.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCompatibility, exportsOf } from '../../scripts/api-compat';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const BEFORE = `
export declare interface Settings { address: string; }
export declare function connectClient(settings?: Settings, tracing?: boolean): Promise<void>;
export declare class AgentClient {
    private readonly closeConnection;
    constructor(options: { taskQueue: string });
    static connect(env?: Record<string, string>): Promise<AgentClient>;
    attach(workflowId: string): void;
}
declare const version = "1";
export { version }

export { }
`;

// Like api-extractor's rollups, the fixture ends in `export { }`: without it a declaration file exports
// every top-level declaration, and a removed `export` would go unseen.

/** Runs the check with BEFORE as the baseline and `after` as the API now. */
async function check(after: string) {
  const root = await mkdtemp(path.join(tmpdir(), 'api-compat-'));
  dirs.push(root);
  await mkdir(path.join(root, 'baseline'));
  await mkdir(path.join(root, 'current'));
  await writeFile(path.join(root, 'baseline', 'pkg.d.ts'), BEFORE);
  await writeFile(path.join(root, 'current', 'pkg.d.ts'), after);
  return checkCompatibility(root, path.join(root, 'baseline'), path.join(root, 'current')).map((p) => p.message);
}

describe('the API compatibility check', () => {
  it('reads what a rollup exports, by kind', () => {
    expect(exportsOf(BEFORE).map((e) => [e.name, e.kind])).toEqual([
      ['Settings', 'type'],
      ['connectClient', 'function'],
      ['AgentClient', 'class'],
      ['version', 'value'],
    ]);
  });

  it('passes the same API, and one that only adds (an optional parameter, a method, an export), private members changed', async () => {
    expect(await check(BEFORE)).toEqual([]);
    const added = BEFORE.replace('tracing?: boolean)', 'tracing?: boolean, more?: number)')
      .replace('private readonly closeConnection;', 'private readonly other;')
      .replace('attach(workflowId: string): void;', 'attach(workflowId: string): void;\n    close(): Promise<void>;')
      .concat('\nexport declare function defineAgent(): void;\n');
    expect(await check(added)).toEqual([]);
  }, 60_000);

  it('fails when an optional parameter is removed, as connectClient(settings?) lost its default once', async () => {
    const problems = await check(BEFORE.replace('connectClient(settings?: Settings, tracing?: boolean)', 'connectClient(settings: Settings, tracing?: boolean)'));
    expect(problems).toEqual(['connectClient() no longer accepts every call the last release accepted']);
  }, 60_000);

  it("fails when an export, a method's parameter or a static method's parameter is gone", async () => {
    expect(await check(BEFORE.replace('export { version }', ''))).toEqual([expect.stringContaining("'version'")]);
    // A parameter removed altogether breaks `attach('id')` as much as a narrowed one.
    expect(await check(BEFORE.replace('attach(workflowId: string): void;', 'attach(): void;'))).toEqual(['AgentClient.prototype.attach() no longer accepts every call the last release accepted']);
    expect(await check(BEFORE.replace('attach(workflowId: string): void;', 'attach(workflowId: number): void;'))).toEqual(['AgentClient.prototype.attach() no longer accepts every call the last release accepted']);
    expect(await check(BEFORE.replace('static connect(env?: Record<string, string>)', 'static connect()'))).toEqual(['AgentClient.connect() no longer accepts every call the last release accepted']);
  }, 120_000);
});
