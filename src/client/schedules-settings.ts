// What a schedule is made of besides its cron: its name, time zone, overlap policy, the run input each
// firing gets, and the memo it carries so that lists can show what it runs without decoding each action.
import { ScheduleOverlapPolicy } from '@temporalio/client';
import { z } from 'zod';
import { AgentRunInputSchema, type AgentRunInput, type ParsedRunInput } from '../contract/run-input';
import { InvalidRunRequestError, InvalidScheduleError } from './errors';
import { checkRunInput } from './start-run';

/** Names go into CLI arguments, console URLs and workflow ids, so they are kept to plain characters. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Throws InvalidScheduleError unless `name` can name a schedule. */
export function checkScheduleName(name: string): string {
  if (!NAME.test(name)) {
    throw new InvalidScheduleError(
      `Invalid schedule name ${JSON.stringify(name)}: use letters, digits, ".", "_" and "-", starting with a letter or digit, at most 100 characters (e.g. weekly-triage).`,
    );
  }
  return name;
}

/**
 * The IANA name of `timezone` as the server will load it, or InvalidScheduleError. Checked with Intl
 * (the ICU database Node ships); the canonical spelling is returned because the server's loader is
 * case-sensitive (`europe/berlin` is refused there) and does not know ICU's offsets such as `+01:00`.
 */
export function canonicalTimezone(timezone: string): string {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
  } catch {
    throw new InvalidScheduleError(`Unknown time zone ${JSON.stringify(timezone)}: give an IANA name such as Europe/Berlin, America/New_York or UTC.`);
  }
  if (!/^[A-Za-z]/.test(resolved)) {
    throw new InvalidScheduleError(`Time zone ${JSON.stringify(timezone)} is an offset, which Temporal cannot load: give an IANA name such as Europe/Berlin or Etc/GMT-1.`);
  }
  return resolved;
}

/** What happens when a firing comes while the schedule's previous run is still open (a parked run is open). */
export const ScheduleOverlapSchema = z.enum(['skip', 'buffer_one', 'allow_all', 'cancel_other']);
/** `skip` (the default), `buffer_one`, `allow_all` or `cancel_other`. */
export type ScheduleOverlap = z.infer<typeof ScheduleOverlapSchema>;

export const OVERLAP_POLICY: Record<ScheduleOverlap, ScheduleOverlapPolicy> = {
  skip: ScheduleOverlapPolicy.SKIP,
  buffer_one: ScheduleOverlapPolicy.BUFFER_ONE,
  allow_all: ScheduleOverlapPolicy.ALLOW_ALL,
  cancel_other: ScheduleOverlapPolicy.CANCEL_OTHER,
};

/** The overlap as Temporal reports it, in our spelling (`buffer_all` and `terminate_other` can be set by other tools). */
export const overlapName = (policy: ScheduleOverlapPolicy | undefined): string => (policy ?? 'SKIP').toLowerCase();

export function checkOverlap(overlap: string): ScheduleOverlap {
  const parsed = ScheduleOverlapSchema.safeParse(overlap);
  if (!parsed.success) throw new InvalidScheduleError(`Unknown overlap policy "${overlap}": use one of ${ScheduleOverlapSchema.options.join(', ')}.`);
  return parsed.data;
}

/**
 * Fields a person never sets: they carry another run's state (a checkpoint, a run to resume or copy,
 * a parent). In a schedule, every firing would restart from that state, so they are refused.
 */
const INTERNAL_FIELDS = ['checkpoint', 'resumedFrom', 'copyWorkspaceOf', 'parent', 'resume'] as const;

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Paths of the keys `given` has and `parsed` lost: fields the schema does not know, which zod drops without a word. */
function droppedKeys(given: unknown, parsed: unknown, at = ''): string[] {
  if (Array.isArray(given) && Array.isArray(parsed)) return given.flatMap((item, i) => droppedKeys(item, parsed[i], `${at}[${i}]`));
  if (!isPlainObject(given) || !isPlainObject(parsed)) return [];
  return Object.entries(given).flatMap(([key, value]) => {
    const path = at ? `${at}.${key}` : key;
    if (value === undefined) return [];
    return key in parsed ? droppedKeys(value, parsed[key], path) : [path];
  });
}

/**
 * Checks the input every firing of a schedule starts with: the run-input schema (as `startRun` does),
 * and, since it is written once and used for months, no field the schema would silently drop (a typo
 * such as `maxIteration`, at any depth) and no internal field.
 */
export function checkScheduledInput(input: AgentRunInput): ParsedRunInput {
  if (!isPlainObject(input)) throw new InvalidRunRequestError('Invalid run input: it must be a JSON object.');
  const internal = INTERNAL_FIELDS.filter((key) => input[key] !== undefined);
  if (internal.length > 0) {
    throw new InvalidRunRequestError(`Invalid run input: ${internal.join(', ')} ${internal.length > 1 ? 'are' : 'is'} internal (set by resume, fork or a parent run) and cannot start scheduled runs.`);
  }
  const parsed = checkRunInput(input);
  const unknown = droppedKeys(input, parsed);
  if (unknown.length > 0) {
    const known = Object.keys(AgentRunInputSchema.shape).filter((k) => !(INTERNAL_FIELDS as readonly string[]).includes(k));
    throw new InvalidRunRequestError(
      `Invalid run input: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(k)).join(', ')} (a typo?). Top-level fields: ${known.join(', ')}.`,
    );
  }
  return parsed;
}

/** The memo key under which a schedule made by durable-agent says what it runs. */
export const SCHEDULE_MEMO_KEY = 'durableAgentSchedule';

/**
 * What a schedule's memo records (version 1). Versioned because it outlives the client that wrote it:
 * a later release reads memos written by this one. The cron is kept as written, since the server keeps
 * only its compiled calendar.
 */
export const ScheduleMemoSchema = z.object({
  version: z.literal(1),
  agent: z.string(),
  task: z.string(),
  cron: z.string(),
  timezone: z.string(),
  taskQueue: z.string(),
  /** Who made it (the creator's approver name), when the caller said. */
  createdBy: z.string().optional(),
});
export type ScheduleMemo = z.infer<typeof ScheduleMemoSchema>;

/** The memo of a schedule, or undefined when it has none of ours (made by another tool) or one this release cannot read. */
export function readScheduleMemo(memo: Record<string, unknown> | undefined): ScheduleMemo | undefined {
  const parsed = ScheduleMemoSchema.safeParse(memo?.[SCHEDULE_MEMO_KEY]);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The workflow id the schedule's action names; Temporal appends each firing's time to it, so a firing
 * of `weekly-triage` is `schedule-weekly-triage-2026-12-07T08:00:00Z`.
 */
export const scheduleWorkflowIdPrefix = (name: string) => `schedule-${name}`;
