// What a built-in tool gets from the activity wrapper, for calling tools directly in unit tests.
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { ToolContext } from '../../src/tools/tool-definition';

/** A fresh, symlink-resolved folder under the system temp dir (as resolveWorkspaceRoot would give). */
export async function tempDir(prefix = 'tool-ws-'): Promise<string> {
  return realpath(await mkdtemp(path.join(tmpdir(), prefix)));
}

export function toolContext(workspaceRoot: string, signal = new AbortController().signal): ToolContext {
  return { workspaceRoot, signal, heartbeat: () => undefined };
}
