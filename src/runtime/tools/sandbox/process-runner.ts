import * as path from 'node:path';
import { z } from 'zod';
import type { ToolPermission } from '../../../contract/tool-permission';
import { bwrapArgs, dropTo } from './bwrap-args';
import { describeCgroupHits, enterCgroupArgv } from './cgroups/cgroup-launch';
import type { CgroupHits, CgroupHost, CommandCgroup } from './cgroups/command-cgroup';
import { cgroupsOfThisWorker } from './cgroups/detect-cgroups';
import { detectChildGuard, type ChildGuard } from './child-guard';
import { CommandLimitsSchema, describeLimitHit, ulimitCommands, type CommandLimits } from '../../../contract/command-limits';
import { SandboxEnforcementError, ToolEnvironmentError } from './errors';
import { findExecutable } from './find-executable';
import { shellLauncher } from './liveness-gate';
import { protectionMounts } from './protection-mounts';
import { undoProtectedChanges } from './protected-sweep';
import { runProcess } from './run-process';
import type { SandboxMode } from './sandbox-mode';
import { resolveSandboxUser, type SandboxUser } from './sandbox-user';
import { readSystemLayout } from './system-layout';
import { toolEnvironment } from './tool-environment';
import { createCallHome, removeCallHome } from './call-home';
import { codeLoadingRefusal, isCodeLoadingVariable } from '../../../contract/code-loading-variables';
import { networkGranted } from '../../../contract/tool-permission';
import { scanWorkspace, type WorkspaceScan } from './workspace-scan';

const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name');

export const ProcessRunSpecSchema = z.object({
  /** The command line, run with `bash --noprofile --norc -c`. */
  command: z.string().min(1),
  /** Absolute, symlink-resolved folder: the working directory and the only host path of the run that may be writable. */
  workspace: z.string().refine((p) => path.isAbsolute(p), 'must be an absolute path'),
  /** Folders inside the workspace this run must not see (bwrap only; ignored without a sandbox). */
  hiddenPaths: z.array(z.string()).default([]),
  /**
   * Whether the run lets commands use the network (bwrap only; without a sandbox it always can). The
   * command gets it only when its permission grants it too (`networkGranted`): a person's approval,
   * or a rule or "always" with `"network": true`.
   */
  network: z.boolean().default(false),
  /** Variables passed through for this run only, on top of the runner's allow-list. */
  extraEnvAllow: z.array(EnvName).default([]),
  /**
   * Who let the call run and whether it may write (ToolContext.permission). Absent means a rule let
   * it through and it may not write: the workspace is read-only.
   */
  permission: z.object({ by: z.enum(['person', 'rule']), writes: z.boolean(), network: z.boolean().optional() }).default({ by: 'rule', writes: false, network: false }),
  /** The agent's limits (see command-limits.ts); absent ones take the defaults. */
  limits: CommandLimitsSchema.default(CommandLimitsSchema.parse({})),
  timeoutMs: z.number().int().positive(),
  signal: z.instanceof(AbortSignal),
  /** What the caller will show; output is collected up to twice this, so it can say how much it cut. */
  outputLimit: z.number().int().positive(),
});
export type ProcessRunSpec = z.input<typeof ProcessRunSpecSchema>;

export interface ProcessRunResult {
  exitCode: number | null;
  signal: string | null;
  /** stdout and stderr interleaved, up to about twice the output limit. */
  output: string;
  timedOut: boolean;
  aborted: boolean;
  /** Whether the command ran inside bwrap (false in mode none). */
  sandboxed: boolean;
  /** What to tell the model when the command ran into one of its limits. */
  limitHit?: string;
  /** Protected paths the command created although no person approved it; they were removed. */
  removedProtectedPaths: string[];
}

export interface ProcessRunner {
  /** The sandbox this runner uses, so callers can report whether runs are sandboxed. */
  readonly mode: SandboxMode;
  /** In mode none, what keeps processes from outliving the worker; undefined under bwrap. */
  readonly childGuard: ChildGuard | undefined;
  /** When the worker is root, who commands run as; file tools hand what they create to this owner. */
  readonly fileOwner: { uid: number; gid: number } | undefined;
  /** The same user with setpriv, for other processes the worker sandboxes (stdio MCP servers). */
  readonly user: SandboxUser | undefined;
  run(spec: ProcessRunSpec): Promise<ProcessRunResult>;
}

export interface ProcessRunnerConfig {
  mode: SandboxMode;
  /** Worker-wide variables tools may see (from `sourceEnv`); everything else is withheld. */
  envAllowList: readonly string[];
  /** Where allowed variables are read from; normally the worker's process.env. */
  sourceEnv: NodeJS.ProcessEnv;
  /** `AGENT_SANDBOX_USER`: who commands run as when the worker is root (default nobody). */
  sandboxUser?: string | undefined;
  /**
   * Where each command gets a cgroup of its own (memory, pids, cpu limits); null for none. Absent,
   * the worker's own cgroups as found at start (cgroupsOfThisWorker). A worker passes what its
   * AGENT_COMMAND_CGROUPS asks for (worker-setup/tool-process-runner.ts), and logs it.
   */
  cgroups?: CgroupHost | null;
}

/**
 * The one way tools start processes. Every run gets a clean environment (toolEnvironment), a fresh
 * HOME of its own (call-home.ts), bash, its limits, runs in the workspace and dies on timeout or abort
 * with everything it started. It has the network only when the run allows it and its permission
 * grants it (a person, or a rule with `"network": true`). Under
 * bwrap it also gets its own namespaces, a workspace that is read-only unless the call may write,
 * and read-only protected paths unless a person approved it (see bwrapArgs). In mode none, which
 * cannot make anything read-only, only calls a person approved run. A root worker runs commands as
 * an unprivileged user. Host probing (system layout, guard, user) happens once here, at start.
 */
export function createProcessRunner(config: ProcessRunnerConfig): ProcessRunner {
  const envAllowList = z.array(EnvName).parse(config.envAllowList);
  const refused = envAllowList.filter(isCodeLoadingVariable);
  if (refused.length > 0) throw new ToolEnvironmentError(codeLoadingRefusal('The allow-list of variables tool processes may see (AGENT_TOOL_ENV)', refused));
  const { mode } = config;
  const system = mode.mode === 'bwrap' ? readSystemLayout() : [];
  const childGuard = mode.mode === 'none' ? detectChildGuard(config.sourceEnv) : undefined;
  const user = resolveSandboxUser(config.sandboxUser ?? config.sourceEnv.AGENT_SANDBOX_USER);
  const shell = shellLauncher();
  // The host bash that joins the command's cgroups before the launcher runs (see cgroup-launch.ts).
  const bash = findExecutable('bash', '/usr/bin:/bin');
  const cgroups = bash === undefined ? undefined : config.cgroups === undefined ? cgroupsOfThisWorker().host : (config.cgroups ?? undefined);

  const argvFor = (spec: RunSpec, env: Record<string, string>, home: string, scan: WorkspaceScan | undefined): string[] => {
    const launched = shell(spec.command, ulimitCommands(spec.limits));
    if (mode.mode === 'bwrap') {
      const { workspace, hiddenPaths, permission, limits } = spec;
      // The run's setting is the ceiling; the permission is the grant (see ToolPermission).
      const network = spec.network && networkGranted(permission);
      const protection = scan && protects(permission) ? protectionMounts(scan) : undefined;
      return [
        mode.bwrapPath,
        ...bwrapArgs({ shell: launched, workspace, env, home, network, hiddenPaths, system, writable: permission.writes, protection, tmpBytes: limits.tmpBytes, runAs: user }),
      ];
    }
    const prefix = childGuard?.kind === 'pid-namespace' ? childGuard.prefix : [];
    return [...prefix, ...(user ? dropTo(user) : []), ...launched];
  };

  return {
    mode,
    childGuard,
    fileOwner: user && { uid: user.uid, gid: user.gid },
    user,
    async run(raw) {
      const spec = ProcessRunSpecSchema.parse(raw);
      if (mode.mode === 'none' && spec.permission.by !== 'person') throw unenforceable(mode.reason);
      const guarded = mode.mode === 'bwrap' && protects(spec.permission);
      const scan = guarded || user ? await scanWorkspace(spec.workspace, { hidden: spec.hiddenPaths, owner: user }) : undefined;
      const home = await createCallHome(user && { uid: user.uid, gid: user.gid });
      let cgroup: CommandCgroup | undefined;
      let hits: CgroupHits | undefined;
      let outcome;
      try {
        const seen = spec.permission.by === 'person';
        const env = toolEnvironment({ home, workspace: spec.workspace, allow: [...envAllowList, ...spec.extraEnvAllow], source: config.sourceEnv, seen });
        const argv = argvFor(spec, env, home, scan);
        cgroup = cgroups ? await cgroups.create(spec.limits) : undefined;
        outcome = await runProcess({
          argv: cgroup && bash ? enterCgroupArgv(bash, cgroup.procsFiles, argv) : argv,
          cwd: spec.workspace,
          env,
          timeoutMs: spec.timeoutMs,
          signal: spec.signal,
          outputLimit: spec.outputLimit,
        });
        hits = await cgroup?.hits();
      } finally {
        await removeCgroup(cgroup);
        await removeCallHome(home, user);
      }
      const removedProtectedPaths = guarded && scan ? await undoProtectedChanges(spec.workspace, spec.hiddenPaths, scan, user) : [];
      const limitHit = outcome.aborted ? undefined : describeLimits(outcome, spec.limits, hits);
      return { ...outcome, sandboxed: mode.mode === 'bwrap', removedProtectedPaths, ...(limitHit ? { limitHit } : {}) };
    },
  };
}

/** What the model is told: what the cgroup counted for certain, then what the output suggests of the rlimits. */
function describeLimits(outcome: { exitCode: number | null; output: string; timedOut: boolean }, limits: CommandLimits, hits: CgroupHits | undefined) {
  const failed = outcome.timedOut || outcome.exitCode !== 0;
  const notes = [
    hits && describeCgroupHits(hits, limits, failed),
    describeLimitHit(outcome, limits, { processes: (hits?.forkRefusals ?? 0) > 0 }),
  ].filter((note) => note !== undefined);
  return notes.length === 0 ? undefined : notes.join(' ');
}

/** The command's result stands even when its cgroup cannot be removed; the worker says so in its log. */
async function removeCgroup(cgroup: CommandCgroup | undefined): Promise<void> {
  try {
    await cgroup?.remove();
  } catch (error) {
    console.warn(`WARNING: ${error instanceof Error ? error.message : String(error)}`);
  }
}

type RunSpec = z.output<typeof ProcessRunSpecSchema> & { limits: CommandLimits };

/** Whether protected paths must stay read-only: a writable workspace a person did not grant. */
function protects(permission: ToolPermission): boolean {
  return permission.writes && permission.by !== 'person';
}

function unenforceable(reason: string): SandboxEnforcementError {
  return new SandboxEnforcementError(
    `This worker runs commands without a sandbox (${reason}), so it cannot keep the workspace or protected paths ` +
      'read-only, and runs only commands a person approved. This call was allowed by a rule or preference: ask a ' +
      'person to approve it, or run the worker with bubblewrap (AGENT_SANDBOX=bwrap).',
  );
}
