import type { WorkerSettings } from '../config/worker-settings';
import { commandCgroupsFor } from '../tools/sandbox/cgroups/detect-cgroups';
import { createProcessRunner, type ProcessRunner } from '../tools/sandbox/process-runner';
import { resolveSandboxMode, sandboxWarning } from '../tools/sandbox/sandbox-mode';

/**
 * How tool processes (and stdio MCP servers) run on this worker, from its settings: the sandbox,
 * the user commands run as, the variables they may see and their cgroups. Logs once what this
 * worker cannot enforce: an unsandboxed mode, and per-command cgroup limits the host does not
 * allow or AGENT_COMMAND_CGROUPS turned off.
 */
export function toolProcessRunner({ sandbox }: WorkerSettings): ProcessRunner {
  // The sandbox needs PATH to find bwrap even when the caller's env is only the model settings
  // (createAgentWorker({ env })): then the worker process's own PATH.
  const mode = resolveSandboxMode({ PATH: sandbox.path ?? process.env.PATH, AGENT_SANDBOX: sandbox.mode });
  const warning = sandboxWarning(mode);
  if (warning) console.warn(`WARNING: ${warning}`);
  // Once per worker: which per-command cgroup limits are not enforced, why, and what to do.
  const cgroups = commandCgroupsFor(sandbox.commandCgroups);
  if (cgroups.notice) console.warn(`WARNING: ${cgroups.notice}`);
  // A root worker runs commands as AGENT_SANDBOX_USER (default nobody), or refuses to start (SandboxUserError).
  // Allowed variables come from the worker's own process environment, where a deployment puts them.
  // Raw on purpose: besides AGENT_TOOL_ENV's names, each agent's `env` list (configuration file) may
  // name any variable, so no typed field can hold them all.
  return createProcessRunner({ mode, envAllowList: sandbox.toolEnv, sourceEnv: process.env, sandboxUser: sandbox.user, cgroups: cgroups.host ?? null, scanMaxEntries: sandbox.scanMaxEntries });
}
