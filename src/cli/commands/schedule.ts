import { readFileSync } from 'node:fs';
import { type CliContext, type Command } from '../../client/cli-context';
import { stringFlag } from '../../client/approval-helpers';
import { InvalidRunRequestError, InvalidScheduleError, UsageError } from '../../client/errors';
import type { AgentRunInput } from '../../contract/run-input';
import { deleteSchedule, describeSchedule, listSchedules, pauseSchedule, startSchedule, unpauseSchedule } from '../../client/schedules';
import { triggerSchedule } from '../../client/schedules-trigger';
import { checkCron } from '../../client/schedules-cron';
import { canonicalTimezone, checkOverlap, checkScheduledInput, checkScheduleName, ScheduleOverlapSchema } from '../../client/schedules-settings';
import { renderCreated, renderScheduleDescription, renderScheduleList, renderTriggered } from '../../client/schedules-render';

const OVERLAPS = ScheduleOverlapSchema.options.join('|');
const USAGE = [
  `agentctl schedule create <name> --agent A --task "..." --cron "0 9 * * 1" [--timezone Europe/Berlin] [--overlap ${OVERLAPS}] [--input run.json] [--json]`,
  '       agentctl schedule list [--json]',
  '       agentctl schedule describe <name> [--json]',
  '       agentctl schedule pause <name> [--note TEXT]',
  '       agentctl schedule unpause <name> [--note TEXT]',
  `       agentctl schedule trigger <name> [--overlap ${OVERLAPS}] [--json]`,
  '       agentctl schedule delete <name>',
].join('\n');

/** Checks done before connecting, as a usage error: a typo is reported even with no server around. */
function locally<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof InvalidScheduleError || error instanceof InvalidRunRequestError) throw new UsageError(error.message);
    throw error;
  }
}

/** `--input FILE`: a JSON object of run-input fields; `--agent` and `--task` fill in or must agree with it. */
function runInput(ctx: CliContext): AgentRunInput {
  const file = stringFlag(ctx, 'input');
  let fromFile: Record<string, unknown> = {};
  if (file !== undefined) {
    try {
      fromFile = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      throw new UsageError(`--input must name a JSON file holding a run input (${file}: ${(error as Error).message})`);
    }
    if (fromFile === null || typeof fromFile !== 'object' || Array.isArray(fromFile)) throw new UsageError(`--input: ${file} must hold a JSON object of run-input fields`);
  }
  const input: Record<string, unknown> = { ...fromFile };
  for (const field of ['agent', 'task'] as const) {
    const flag = stringFlag(ctx, field);
    if (flag !== undefined && input[field] !== undefined && input[field] !== flag) {
      throw new UsageError(`--${field} "${flag}" differs from the ${field} in ${file}; give it in one place`);
    }
    input[field] = flag ?? input[field];
    if (input[field] === undefined) throw new UsageError(`schedule create needs --${field} (or "${field}" in the --input file)`);
  }
  // The runs act for whoever made the schedule, as `agentctl run` does: their remembered choices apply.
  input.user ??= ctx.clientSettings.approver;
  return input as AgentRunInput;
}

function nameArg(ctx: CliContext, sub: string): string {
  const [, name, ...extra] = ctx.args.positionals;
  if (!name || extra.length > 0) throw new UsageError(`schedule ${sub} needs exactly one schedule name (see agentctl schedule list)`);
  return name;
}

async function create(ctx: CliContext): Promise<number> {
  const name = nameArg(ctx, 'create');
  const cron = stringFlag(ctx, 'cron');
  if (cron === undefined) throw new UsageError('schedule create needs --cron, e.g. --cron "0 9 * * 1" for Mondays at 9:00');
  const timezone = stringFlag(ctx, 'timezone');
  const overlap = stringFlag(ctx, 'overlap');
  const input = runInput(ctx);
  locally(() => {
    checkScheduleName(name);
    checkCron(cron);
    if (timezone !== undefined) canonicalTimezone(timezone);
    if (overlap !== undefined) checkOverlap(overlap);
    checkScheduledInput(input);
  });
  const created = await startSchedule(await ctx.client(), {
    name,
    cron,
    timezone,
    overlap: overlap === undefined ? undefined : checkOverlap(overlap),
    input,
    taskQueue: ctx.settings.taskQueue,
    createdBy: ctx.clientSettings.approver,
  });
  ctx.print(created, () => renderCreated(created));
  return 0;
}

/** `agentctl schedule <verb>`: scheduled runs, kept by Temporal's Schedules (also on the Web UI's Schedules page). */
export const scheduleCommand: Command = {
  name: 'schedule',
  usage: USAGE,
  summary: 'scheduled runs: create (cron, time zone, overlap), list, describe, pause, unpause, trigger, delete',
  async run(ctx) {
    const [sub] = ctx.args.positionals;
    const note = () => stringFlag(ctx, 'note') ?? `by ${ctx.clientSettings.approver} with agentctl`;
    switch (sub) {
      case 'create':
        return create(ctx);
      case 'list': {
        const schedules = await listSchedules(await ctx.client());
        ctx.print(schedules, () => renderScheduleList(schedules));
        return 0;
      }
      case 'describe': {
        const described = await describeSchedule(await ctx.client(), nameArg(ctx, 'describe'));
        ctx.print(described, () => renderScheduleDescription(described));
        return 0;
      }
      case 'pause':
      case 'unpause': {
        const name = nameArg(ctx, sub);
        const change = sub === 'pause' ? pauseSchedule : unpauseSchedule;
        const described = await change(await ctx.client(), name, `${sub === 'pause' ? 'Paused' : 'Unpaused'} ${note()}`);
        ctx.print(described, () => (sub === 'pause' ? `Paused ${name}: no firing until agentctl schedule unpause ${name}.` : `Unpaused ${name}.`));
        return 0;
      }
      case 'trigger': {
        const name = nameArg(ctx, 'trigger');
        const flag = stringFlag(ctx, 'overlap');
        const overlap = flag === undefined ? undefined : locally(() => checkOverlap(flag));
        const outcome = await triggerSchedule(await ctx.client(), name, { overlap });
        ctx.print({ name, ...outcome }, () => renderTriggered(name, outcome));
        return outcome.outcome === 'skipped' ? 1 : 0;
      }
      case 'delete': {
        const name = nameArg(ctx, 'delete');
        const { openRuns } = await deleteSchedule(await ctx.client(), name);
        ctx.print({ name, deleted: true, openRuns }, () => `Deleted ${name}.${openRuns.length > 0 ? ` Its open runs go on: ${openRuns.join(', ')}.` : ''}`);
        return 0;
      }
      default:
        throw new UsageError(sub ? `Unknown schedule subcommand "${sub}"` : 'schedule needs a subcommand: create, list, describe, pause, unpause, trigger or delete');
    }
  },
};
