import { readFileSync } from 'node:fs';
import { type CliContext, type Command } from '../../client/cli-context';
import { stringFlag } from '../../client/approval-helpers';
import { InvalidRunRequestError, InvalidScheduleError, UsageError } from '../../client/errors';
import type { AgentRunInput } from '../../contract/run-input';
import { deleteSchedule, describeSchedule, listSchedules, pauseSchedule, startSchedule, unpauseSchedule } from '../../client/schedules';
import { triggerSchedule } from '../../client/schedules-trigger';
import { checkCron } from '../../client/schedules-cron';
import { canonicalTimezone, checkOverlap, checkScheduledInput, checkScheduleName, ScheduleOverlapSchema } from '../../client/schedules-settings';
import { renderCreated, renderScheduleDescription, renderScheduleList, renderTriggered, renderUpdated } from '../../client/schedules-render';
import { updateSchedule } from '../../client/schedules-update';

const OVERLAPS = ScheduleOverlapSchema.options.join('|');
const USAGE = [
  `agentctl schedule create <name> --agent A --task "..." --cron "0 9 * * 1" [--timezone Europe/Berlin] [--overlap ${OVERLAPS}] [--input run.json] [--paused] [--json]`,
  `       agentctl schedule update <name> [--cron "0 9 * * 1"] [--timezone Europe/Berlin] [--task "..."] [--overlap ${OVERLAPS}] [--input run.json] [--json]`,
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

/** `--input FILE`: a JSON object of run-input fields, or nothing when the flag is absent. */
function inputFile(ctx: CliContext): Record<string, unknown> | undefined {
  const file = stringFlag(ctx, 'input');
  if (file === undefined) return undefined;
  let fromFile: unknown;
  try {
    fromFile = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--input must name a JSON file holding a run input (${file}: ${(error as Error).message})`);
  }
  if (fromFile === null || typeof fromFile !== 'object' || Array.isArray(fromFile)) throw new UsageError(`--input: ${file} must hold a JSON object of run-input fields`);
  return fromFile as Record<string, unknown>;
}

/** `--input FILE`, `--agent` and `--task` for create: the flags fill in or must agree with the file. */
function runInput(ctx: CliContext): AgentRunInput {
  const file = stringFlag(ctx, 'input');
  const input: Record<string, unknown> = { ...inputFile(ctx) };
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
    ...(ctx.args.flags.paused === true ? { paused: true, note: `Created paused by ${ctx.clientSettings.approver} with agentctl` } : {}),
  });
  ctx.print(created, () => renderCreated(created));
  return 0;
}

/** `schedule update <name>`: every flag checked before connecting; the merged input by updateSchedule before it writes. */
async function update(ctx: CliContext): Promise<number> {
  const name = nameArg(ctx, 'update');
  if (ctx.args.flags.agent !== undefined) throw new UsageError('schedule update takes no --agent: give "agent" in the --input file');
  const cron = stringFlag(ctx, 'cron');
  const timezone = stringFlag(ctx, 'timezone');
  const overlap = stringFlag(ctx, 'overlap');
  const task = stringFlag(ctx, 'task');
  const file = inputFile(ctx);
  const changes = locally(() => {
    checkScheduleName(name);
    if (cron !== undefined) checkCron(cron);
    if (timezone !== undefined) canonicalTimezone(timezone);
    if (file !== undefined) checkScheduledInput({ agent: 'placeholder', task: 'placeholder', ...file } as AgentRunInput);
    if (cron === undefined && timezone === undefined && overlap === undefined && task === undefined && file === undefined) {
      throw new UsageError('schedule update needs at least one of --cron, --timezone, --task, --overlap or --input');
    }
    return { cron, timezone, overlap: overlap === undefined ? undefined : checkOverlap(overlap), task, input: file as Partial<AgentRunInput> | undefined };
  });
  const updated = await updateSchedule(await ctx.client(), name, changes);
  ctx.print(updated, () => renderUpdated(updated));
  return 0;
}

/** `agentctl schedule <verb>`: scheduled runs, kept by Temporal's Schedules (also on the Web UI's Schedules page). */
export const scheduleCommand: Command = {
  name: 'schedule',
  usage: USAGE,
  summary: 'scheduled runs: create (cron, time zone, overlap), update, list, describe, pause, unpause, trigger, delete',
  async run(ctx) {
    const [sub] = ctx.args.positionals;
    const note = () => stringFlag(ctx, 'note') ?? `by ${ctx.clientSettings.approver} with agentctl`;
    switch (sub) {
      case 'create':
        return create(ctx);
      case 'update':
        return update(ctx);
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
        throw new UsageError(sub ? `Unknown schedule subcommand "${sub}"` : 'schedule needs a subcommand: create, update, list, describe, pause, unpause, trigger or delete');
    }
  },
};
