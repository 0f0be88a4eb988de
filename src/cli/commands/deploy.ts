import type { Command } from '../../client/cli-context';
import { stringFlag } from '../../client/approval-helpers';
import { deploymentStatus, renderDeploymentStatus } from '../../client/deployment-status';
import { UsageError } from '../../client/errors';

const FLAGS = ['deployment', 'json'];

/** `agentctl deploy status`: the builds of the worker deployment (Worker Versioning) and the runs each holds. */
export const deployCommand: Command = {
  name: 'deploy',
  usage: 'agentctl deploy status [--deployment NAME] [--json]   (NAME defaults to AGENT_DEPLOYMENT_NAME)',
  summary: "show the worker deployment's builds (current, ramping, draining, drained) and how many runs each holds",
  async run(ctx) {
    const [sub, ...extra] = ctx.args.positionals;
    if (sub !== 'status') throw new UsageError(sub ? `Unknown deploy subcommand "${sub}"; the one there is: status` : 'deploy needs a subcommand: status');
    if (extra.length > 0) throw new UsageError(`deploy status takes no arguments (got "${extra.join(' ')}"); name the deployment with --deployment`);
    const unknown = Object.keys(ctx.args.flags).filter((flag) => !FLAGS.includes(flag));
    if (unknown.length > 0) throw new UsageError(`deploy status does not take ${unknown.map((f) => `--${f}`).join(', ')}`);
    const deployment = stringFlag(ctx, 'deployment') ?? ctx.clientSettings.deploymentName;
    if (!deployment) throw new UsageError('deploy status needs the deployment: --deployment NAME, or AGENT_DEPLOYMENT_NAME as the workers have it');
    const status = await deploymentStatus(await ctx.client(), deployment);
    ctx.print(status, () => renderDeploymentStatus(status));
    return 0;
  },
};
