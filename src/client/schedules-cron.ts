// The cron expressions a schedule accepts, checked here before anything reaches the server, so a
// mistake is named by field with what was expected (the server's own errors name neither the field
// by position nor the expression). The grammar is the part of Temporal's cron syntax that means the
// same as a crontab line: five fields, `*`, values, ranges, steps and lists, month and day names, and
// the @daily-style shorthands. Temporal's extras (seconds and years as a 6th or 7th field, `@every`,
// a `CRON_TZ=` prefix, `#` comments) are refused with what to write instead.
import { InvalidScheduleError } from './errors';

interface CronField {
  name: string;
  plural: string;
  min: number;
  max: number;
  /** Full names a value may be written as (a prefix of at least `namePrefix` letters), index = value - nameBase. */
  names?: readonly string[];
  nameBase?: number;
  namePrefix?: number;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'] as const;
const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/** The five fields in order, with the values Temporal accepts for each (7 is Sunday too, as in crontab). */
const FIELDS: readonly CronField[] = [
  { name: 'minute', plural: 'minutes', min: 0, max: 59 },
  { name: 'hour', plural: 'hours', min: 0, max: 23 },
  { name: 'day-of-month', plural: 'days of the month', min: 1, max: 31 },
  { name: 'month', plural: 'months', min: 1, max: 12, names: MONTHS, nameBase: 1, namePrefix: 3 },
  { name: 'day-of-week', plural: 'days of the week', min: 0, max: 7, names: DAYS, nameBase: 0, namePrefix: 2 },
];

/** Shorthands Temporal expands, and what each means. */
const SHORTHANDS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const EXPECTED = 'five fields: minute hour day-of-month month day-of-week, e.g. "0 9 * * 1" for Mondays at 9:00';

class FieldError extends Error {}

function value(raw: string, field: CronField): number {
  if (raw === '') throw new FieldError('a range needs a value on each side of "-"');
  if (/^\d+$/.test(raw)) {
    const n = Number(raw);
    if (n < field.min || n > field.max) throw new FieldError(`${raw} is out of range: ${field.plural} run ${field.min}-${field.max}`);
    return n;
  }
  if (field.names && /^[a-z]+$/i.test(raw)) {
    const lower = raw.toLowerCase();
    const index = lower.length >= field.namePrefix! ? field.names.findIndex((n) => n.startsWith(lower)) : -1;
    if (index >= 0) return index + field.nameBase!;
    throw new FieldError(`"${raw}" is not a ${field.name} name: write a number ${field.min}-${field.max} or a name such as ${field.names[1]!.slice(0, 3)}`);
  }
  if (raw === '?') throw new FieldError('"?" is not supported: write * for "any"');
  if (/^[LW#]|[LW#]$|#/i.test(raw)) throw new FieldError(`"${raw}": L, W and # are not supported by Temporal schedules`);
  throw new FieldError(`"${raw}" is not a number${field.names ? ' or a name' : ''} (${field.plural} run ${field.min}-${field.max})`);
}

function item(raw: string, field: CronField): void {
  if (raw === '') throw new FieldError('an empty item (two commas in a row, or a comma at an end)');
  const parts = raw.split('/');
  if (parts.length > 2) throw new FieldError(`"${raw}" has more than one "/"`);
  const [range, step] = parts as [string, string | undefined];
  if (step !== undefined && !/^[1-9]\d*$/.test(step)) throw new FieldError(`"${raw}": the step after "/" must be a whole number of at least 1`);
  if (range === '*') return;
  const ends = range.split('-');
  if (ends.length > 2) throw new FieldError(`"${raw}" has more than one "-"`);
  const start = value(ends[0]!, field);
  if (ends.length === 2) {
    const end = value(ends[1]!, field);
    if (end < start) throw new FieldError(`the range "${range}" runs backwards: write the smaller value first, or two items (e.g. "${ends[0]}-${field.max},${field.min}-${ends[1]}")`);
  }
}

/**
 * Checks a cron expression and returns it tidied (single spaces, a shorthand in lower case), or
 * throws InvalidScheduleError naming the field, its position and what was expected.
 */
export function checkCron(expression: string): string {
  const trimmed = expression.trim();
  const refuse = (why: string): never => {
    throw new InvalidScheduleError(`Invalid cron "${expression}": ${why}.`);
  };
  if (trimmed === '') refuse(`it is empty; expected ${EXPECTED}`);
  if (/(^|\s)#/.test(trimmed)) refuse('a "#" comment is not taken here');
  if (/^(CRON_)?TZ=/i.test(trimmed)) refuse('a time zone prefix is not taken here: give the time zone with --timezone (the `timezone` option)');
  if (trimmed.startsWith('@')) {
    const shorthand = trimmed.toLowerCase();
    if (shorthand in SHORTHANDS) return shorthand;
    if (shorthand.startsWith('@every')) refuse('@every is an interval, not a calendar time; write it as cron fields, e.g. "*/15 * * * *" for every 15 minutes');
    refuse(`unknown shorthand; the shorthands are ${Object.keys(SHORTHANDS).join(', ')}`);
  }
  const fields = trimmed.split(/\s+/);
  if (fields.length !== FIELDS.length) {
    refuse(`it has ${fields.length} field${fields.length === 1 ? '' : 's'}; expected ${EXPECTED}${fields.length > 5 ? ' (seconds and years are not supported)' : ''}`);
  }
  fields.forEach((text, i) => {
    const field = FIELDS[i]!;
    try {
      for (const part of text.split(',')) item(part, field);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      refuse(`field ${i + 1} (${field.name}) "${text}": ${error.message}`);
    }
  });
  return fields.join(' ');
}

/**
 * True when both day fields are restricted. Temporal then fires only on days that match both (the
 * 1st to 7th AND a Monday: the first Monday), where a crontab fires on days that match either.
 */
export function restrictsBothDays(expression: string): boolean {
  const fields = (SHORTHANDS[expression] ?? expression).split(' ');
  return fields.length === 5 && fields[2] !== '*' && fields[4] !== '*';
}
