import * as path from 'node:path';
import { z } from 'zod';
import { bwrapArgs } from './bwrap-args';
import { detectChildGuard, type ChildGuard } from './child-guard';
import { shellLauncher } from './liveness-gate';
import { runProcess } from './run-process';
import type { SandboxMode } from './sandbox-mode';
import { readSystemLayout } from './system-layout';
import { toolEnvironment } from './tool-environment';

const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name');

const ProcessRunSpecSchema = z.object({
  /** The command line, run with `/bin/sh -c`. */
  command: z.string().min(1),
  /** Absolute, symlink-resolved folder: the working directory, HOME and the only writable host path. */
  workspace: z.string().refine((p) => path.isAbsolute(p), 'must be an absolute path'),
  /** Folders inside the workspace this run must not see (bwrap only; ignored without a sandbox). */
  hiddenPaths: z.array(z.string()).default([]),
  /** Whether the command may use the network (bwrap only; without a sandbox it always can). */
  network: z.boolean().default(false),
  /** Variables passed through for this run only, on top of the runner's allow-list. */
  extraEnvAllow: z.array(EnvName).default([]),
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
}

export interface ProcessRunner {
  /** The sandbox this runner uses, so callers can report whether runs are sandboxed. */
  readonly mode: SandboxMode;
  /** In mode none, what keeps processes from outliving the worker; undefined under bwrap. */
  readonly childGuard: ChildGuard | undefined;
  run(spec: ProcessRunSpec): Promise<ProcessRunResult>;
}

export interface ProcessRunnerConfig {
  mode: SandboxMode;
  /** Worker-wide variables tools may see (from `sourceEnv`); everything else is withheld. */
  envAllowList: readonly string[];
  /** Where allowed variables are read from; normally the worker's process.env. */
  sourceEnv: NodeJS.ProcessEnv;
}

/**
 * The one way tools start processes. Every run gets a clean environment (toolEnvironment), runs in
 * the workspace and dies on timeout or abort with everything it started. Under bwrap it also gets
 * its own namespaces (see bwrapArgs); in mode none the strongest available ChildGuard is used.
 * Host probing (system layout, guard) happens once here, so the worker pays it at start.
 */
export function createProcessRunner(config: ProcessRunnerConfig): ProcessRunner {
  const envAllowList = z.array(EnvName).parse(config.envAllowList);
  const { mode } = config;
  const system = mode.mode === 'bwrap' ? readSystemLayout() : [];
  const childGuard = mode.mode === 'none' ? detectChildGuard(config.sourceEnv) : undefined;
  const shell = shellLauncher();

  const argvFor = (spec: z.output<typeof ProcessRunSpecSchema>, env: Record<string, string>): string[] => {
    if (mode.mode === 'bwrap') {
      const { command, workspace, network, hiddenPaths } = spec;
      return [mode.bwrapPath, ...bwrapArgs({ shell: shell(command), workspace, env, network, hiddenPaths, system })];
    }
    const prefix = childGuard?.kind === 'pid-namespace' ? childGuard.prefix : [];
    return [...prefix, ...shell(spec.command)];
  };

  return {
    mode,
    childGuard,
    async run(raw) {
      const spec = ProcessRunSpecSchema.parse(raw);
      const env = toolEnvironment({
        home: spec.workspace,
        allow: [...envAllowList, ...spec.extraEnvAllow],
        source: config.sourceEnv,
      });
      const outcome = await runProcess({
        argv: argvFor(spec, env),
        cwd: spec.workspace,
        env,
        timeoutMs: spec.timeoutMs,
        signal: spec.signal,
        outputLimit: spec.outputLimit,
      });
      return { ...outcome, sandboxed: mode.mode === 'bwrap' };
    },
  };
}
