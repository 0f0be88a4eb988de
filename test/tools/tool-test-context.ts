// What a built-in tool gets from the activity wrapper, for calling tools directly in unit tests.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { ToolContext } from '../../src/tools/tool-definition';

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

export function toolContext(workspaceRoot: string, signal = new AbortController().signal): ToolContext {
  return { workspaceRoot, signal, heartbeat: () => undefined };
}
