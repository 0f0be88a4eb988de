// What a built-in tool gets from the activity wrapper, for calling tools directly in unit tests.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createProcessRunner, type ProcessRunner } from '../../../src/runtime/tools/sandbox/process-runner';
import { resolveSandboxMode } from '../../../src/runtime/tools/sandbox/sandbox-mode';
import type { ToolContext } from '../../../src/runtime/tools/tool-definition';

const created: string[] = [];

/** A fresh, symlink-resolved folder under the system temp dir (as resolveWorkspaceRoot would give). */
export async function tempDir(prefix = 'tool-ws-'): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/** Removes every folder `tempDir` made in this test file; call it in `afterAll`. */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

let defaultRunner: ProcessRunner | undefined;

/**
 * The runner a worker on this machine would build (AGENT_SANDBOX, else bwrap when found). Built on
 * first use, so tests of tools that start no process never probe for bwrap.
 */
export function testProcessRunner(): ProcessRunner {
  defaultRunner ??= createProcessRunner({ mode: resolveSandboxMode(process.env), envAllowList: [], sourceEnv: process.env });
  return defaultRunner;
}

export function toolContext(workspaceRoot: string, signal = new AbortController().signal, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    workspaceRoot,
    signal,
    heartbeat: () => undefined,
    idempotencyKey: 'test-workflow/test-call',
    get processes() {
      return testProcessRunner();
    },
    network: false,
    hiddenPaths: [],
    ...overrides,
  };
}
