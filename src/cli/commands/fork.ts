import { DefaultLogger, Runtime } from '@temporalio/worker';
import { type Command } from '../../client/cli-context';
import { followFromCli } from '../../client/follow-cli';
import { forkRun, workspaceNote } from '../../client/fork-run';
import { stringFlag } from '../../client/approval-helpers';
import { UsageError } from '../../client/errors';

/** Reading the run replays its history in this process; Temporal's INFO lines (the bundler's) would drown the answer. */
function quietReplayLogs(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // A runtime exists already in this process: keep it.
  }
}

/**
 * `agentctl fork <workflowId> --iteration N [--task "..."]`: a new run that continues from the state
 * the run had after iteration N (conversation, tasks, choices, usage), under a fresh id. Works on
 * closed and running runs (the original is only read) and across continue-as-new links. The fork is
 * the requester's (`--approver`, default: the approver setting): a run with approvers only forks for one.
 */
export const forkCommand: Command = {
  name: 'fork',
  usage: 'agentctl fork <workflowId> --iteration N [--task "new instruction"] [--approver NAME] [--detach] [--json]',
  summary: 'start a new run from the state a run had after iteration N (time travel); the original is untouched',
  async run(ctx) {
    const [workflowId, ...extra] = ctx.args.positionals;
    if (!workflowId || extra.length > 0) throw new UsageError('fork needs exactly one workflow id (put the new instruction in --task "...")');
    const raw = ctx.args.flags.iteration;
    const iteration = Number(raw);
    if (raw === undefined || raw === true || !Number.isInteger(iteration) || iteration < 1) {
      throw new UsageError(`fork needs --iteration N, a whole number from 1 (the iteration to continue after), not "${String(raw ?? '')}"`);
    }
    const task = stringFlag(ctx, 'task');
    if (ctx.args.flags.task !== undefined && !task) throw new UsageError('--task needs the new instruction as its value');
    quietReplayLogs();
    const { plan, handle } = await forkRun(await ctx.client(), workflowId, { iteration, task, taskQueue: ctx.settings.taskQueue, requestedBy: stringFlag(ctx, 'approver') ?? ctx.clientSettings.approver });
    const note = workspaceNote(plan);
    // With --json, stdout holds only the answer (as `run --detach --json`); the note about files goes to stderr.
    if (ctx.json) process.stderr.write(`${note}\n`);
    if (ctx.args.flags.detach) {
      ctx.print({ workflowId: handle.workflowId }, () =>
        [`Started ${handle.workflowId}, a fork of ${workflowId} after iteration ${iteration}`, note, `Follow it: npx agentctl watch ${handle.workflowId}`, `Result:    npx agentctl result ${handle.workflowId}`].join('\n'),
      );
      return 0;
    }
    if (!ctx.json) ctx.out(`Started ${handle.workflowId}, a fork of ${workflowId} after iteration ${iteration} (task queue ${ctx.settings.taskQueue})\n${note}`);
    return followFromCli(ctx, handle);
  },
};
