import type { CommandLimits } from '../../../contract/command-limits';
import type { ProcessRunner } from './process-runner';

/**
 * The runner one agent's tools get: the worker's, plus the variables the agent's definition lets
 * through (`env`) and its command limits (`limits`). The run's own spec still adds to the variables.
 */
export function runnerForAgent(runner: ProcessRunner, agent: { env: readonly string[]; limits?: CommandLimits | undefined }): ProcessRunner {
  if (agent.env.length === 0 && agent.limits === undefined) return runner;
  return {
    mode: runner.mode,
    childGuard: runner.childGuard,
    fileOwner: runner.fileOwner,
    user: runner.user,
    run: (spec) =>
      runner.run({
        ...spec,
        extraEnvAllow: [...(spec.extraEnvAllow ?? []), ...agent.env],
        ...(agent.limits && spec.limits === undefined ? { limits: agent.limits } : {}),
      }),
  };
}
