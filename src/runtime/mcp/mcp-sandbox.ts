import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { McpServerStartError } from '../../contract/errors';
import { bwrapArgs } from '../tools/sandbox/bwrap-args';
import type { ChildGuard } from '../tools/sandbox/child-guard';
import type { ProcessRunner } from '../tools/sandbox/process-runner';
import { protectionMounts, type ProtectionMounts } from '../tools/sandbox/protection-mounts';
import type { SandboxUser } from '../tools/sandbox/sandbox-user';
import { scanWorkspace } from '../tools/sandbox/workspace-scan';
import type { SandboxMode } from '../tools/sandbox/sandbox-mode';
import { readSystemLayout, type SystemPath } from '../tools/sandbox/system-layout';
import { isInside, RUNS_FOLDER } from '../tools/workspace';
import { DEFAULT_MCP_FOLDERS, type StdioServerConfig } from './mcp-server-config';
import { programBinds, resolveFolder, resolveProgram, type Bind } from './mcp-sandbox-paths';

/**
 * What the worker knows about its host when it starts stdio MCP servers: the same sandbox mode,
 * process guard and system folders its tool commands use, and the workspace root.
 */
export interface McpHost {
  mode: SandboxMode;
  /** In mode none, what keeps processes from outliving the worker (see child-guard.ts). */
  childGuard: ChildGuard | undefined;
  /** Absolute and symlink-resolved. */
  workspaceRoot: string;
  system: readonly SystemPath[];
  /** When the worker is root: the unprivileged user servers run as, as commands do (sandbox-user.ts). */
  runAs?: SandboxUser | undefined;
  /**
   * Protected paths (protected-paths.ts) that existed when the servers started, kept read-only for
   * them: a server is shared by every call and no person approved what it will write.
   */
  protection?: ProtectionMounts | undefined;
}

/** How one stdio server is started: the program, its arguments, its environment and working directory. */
export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Whether the server runs inside bwrap. */
  sandboxed: boolean;
}

/**
 * How a stdio MCP server is started, decided once when the worker starts.
 *
 * Unless its configuration says `sandbox: false`, the server runs in the bubblewrap sandbox that
 * tool commands get (bwrapArgs): no host process visible, capabilities dropped, killed with the
 * worker, read-only system folders, a private /tmp (also its HOME), and no network unless
 * `network: true`. Of the host it sees only its `folders` (default: the workspace, writable), the
 * workspace (always: read-only unless a folder makes it writable) without its `runs/` folder, and,
 * read-only, what its program needs (mcp-sandbox-paths.ts). A folder named only in the server's own
 * arguments stays invisible, so a server told it may read `/` still cannot.
 *
 * Without bwrap (mode none) and with `sandbox: false` it runs on the host as before, under the
 * child guard commands get in mode none, so it still dies with the worker where the host allows it.
 */
export function planStdioLaunch(server: string, config: StdioServerConfig, env: Record<string, string>, host: McpHost): StdioLaunch {
  if (!config.sandbox || host.mode.mode !== 'bwrap') {
    const prefix = host.childGuard?.kind === 'pid-namespace' ? host.childGuard.prefix : [];
    const [command, ...args] = [...prefix, config.command, ...config.args];
    return { command: command!, args, env, ...(config.cwd !== undefined ? { cwd: config.cwd } : {}), sandboxed: false };
  }
  const where = `mcpServers.${server}`;
  const workspace = host.workspaceRoot;
  const folders = (config.folders ?? DEFAULT_MCP_FOLDERS).map((folder, i) => resolveFolder(folder, workspace, `${where}.folders[${i}].path`));
  const workspaceWritable = folders.some((f) => f.real === workspace && f.writable);
  const others: Bind[] = folders.filter((f) => f.real !== workspace).map((f) => ({ path: f.path, writable: f.writable }));
  const visible: Bind[] = [{ path: workspace, writable: workspaceWritable }, ...others];
  const cwd = path.resolve(workspace, config.cwd ?? '.');
  if (!visible.some((f) => isInside(f.path, cwd))) {
    throw new McpServerStartError(`${where}.cwd: ${cwd} is not inside the workspace or one of the server's folders, so the sandboxed server could not start there. Add it to folders.`);
  }
  // The worker's HOME is not visible inside; the private /tmp is, unless the configuration sets HOME.
  const serverEnv: Record<string, string> = { ...env, HOME: config.env.HOME !== undefined ? (env.HOME ?? '/tmp') : '/tmp' };
  const program = resolveProgram(config.command, cwd, serverEnv.PATH, `${where}.command`);
  const systemFolders = host.system.map((p) => p.path);
  const extra = [...others, ...programBinds([program, ...config.args], cwd, [...visible.map((f) => f.path), ...systemFolders])];
  // bwrapArgs binds the workspace writable; it is bound again, after any folder holding it, only
  // when it must be read-only or such a folder would cover it.
  const rebind = !workspaceWritable || extra.some((b) => isInside(b.path, workspace));
  const binds = rebind ? [...extra, { path: workspace, writable: workspaceWritable }] : extra;
  // The mount point of the hidden runs/ folder must exist before bwrap starts: a read-only
  // workspace would not let bwrap create it, and one created later would not be hidden.
  const runs = path.join(workspace, RUNS_FOLDER);
  mkdirSync(runs, { recursive: true });
  const argv = bwrapArgs({
    shell: [program, ...config.args],
    workspace,
    env: serverEnv,
    network: config.network ?? false,
    hiddenPaths: [runs],
    system: host.system,
    binds: parentsFirst(binds),
    chdir: cwd,
    ...(host.protection ? { protection: host.protection } : {}),
    ...(host.runAs ? { runAs: host.runAs } : {}),
  });
  // bwrap itself needs nothing from the environment; it clears it for the server (--clearenv).
  return { command: host.mode.bwrapPath, args: argv, env: {}, sandboxed: true };
}

/** Binds ordered so that a folder is mounted before anything inside it (a later mount covers an earlier one). */
function parentsFirst(binds: readonly Bind[]): Bind[] {
  const depth = (p: string) => p.split(path.sep).filter(Boolean).length;
  return [...binds].sort((a, b) => depth(a.path) - depth(b.path));
}

/** What the worker prints at start for each server that runs unsandboxed; empty when all are sandboxed. */
export function unsandboxedWarnings(servers: Record<string, { sandbox?: boolean } | { url: string }>, mode: SandboxMode): string[] {
  return Object.entries(servers).flatMap(([name, config]) => {
    if ('url' in config) return [];
    const why = config.sandbox === false ? 'its configuration says sandbox: false' : mode.mode === 'none' ? mode.reason : undefined;
    if (why === undefined) return [];
    return [
      `MCP server "${name}" runs UNSANDBOXED (${why}): it can read and write everything the worker's user can and reach ` +
        'the network, the Temporal server included. It still gets a minimal environment and dies with the worker where the host allows it.',
    ];
  });
}

/** The host facts for MCP servers, from the worker's tool process runner (the same sandbox mode and guard). */
export function mcpHostFor(runner: Pick<ProcessRunner, 'mode' | 'childGuard' | 'user'>, workspaceRoot: string): McpHost {
  return { mode: runner.mode, childGuard: runner.childGuard, workspaceRoot, system: runner.mode.mode === 'bwrap' ? readSystemLayout() : [], runAs: runner.user };
}

/**
 * Readies the host for sandboxed servers once, before they start: when the worker is root, hands the
 * workspace and every folder a server may write to the sandbox user (as the process runner does for
 * the workspace before each command); folders a server only reads must already be readable by that
 * user. Finds the protected paths the servers must see read-only. Fresh protected paths a server
 * creates later are not swept (there is no call boundary to sweep at); docs/guides/security.md says so.
 */
export async function prepareMcpHost(host: McpHost, writableFolders: readonly string[] = []): Promise<McpHost> {
  if (host.mode.mode !== 'bwrap') return host;
  const runs = path.join(host.workspaceRoot, RUNS_FOLDER);
  const owner = host.runAs && { uid: host.runAs.uid, gid: host.runAs.gid };
  const scan = await scanWorkspace(host.workspaceRoot, { hidden: [runs], owner });
  if (owner) {
    for (const folder of writableFolders) {
      if (!isInside(host.workspaceRoot, folder)) await scanWorkspace(folder, { hidden: [], owner });
    }
  }
  return { ...host, protection: protectionMounts(scan) };
}
