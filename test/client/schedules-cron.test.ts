// The cron checker: what it accepts, what it refuses and how it says so (the field by position and
// name, and what was expected); and, on the dev server, that every expression it accepts the server
// accepts too and reads the same way (the next firing times of a cron and of its calendar equivalent agree).
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCron, restrictsBothDays } from '../../src/client/schedules-cron';
import { InvalidScheduleError } from '../../src/client/errors';
import { newClient, uniqueId } from '../support/temporal';

const ACCEPTED: [string, string][] = [
  ['0 9 * * 1', '0 9 * * 1'],
  ['  0   9 * *  1 ', '0 9 * * 1'],
  ['*/15 * * * *', '*/15 * * * *'],
  ['0 9-17 * * 1-5', '0 9-17 * * 1-5'],
  ['30 19 * * 1,3,5', '30 19 * * 1,3,5'],
  ['0 0 1 jan *', '0 0 1 jan *'],
  ['0 9 * * MON-fri', '0 9 * * MON-fri'],
  ['0 9 * * mo', '0 9 * * mo'],
  ['0 9 1-7 * 1', '0 9 1-7 * 1'],
  ['0 0 * * 7', '0 0 * * 7'],
  ['5/10 * * * *', '5/10 * * * *'],
  ['0 0 29 february *', '0 0 29 february *'],
  ['0 8-18/2 * * 1-5', '0 8-18/2 * * 1-5'],
  ['@daily', '@daily'],
  ['@HOURLY', '@hourly'],
  ['@weekly', '@weekly'],
];

const REFUSED: [string, string][] = [
  ['', 'Invalid cron "": it is empty; expected five fields: minute hour day-of-month month day-of-week, e.g. "0 9 * * 1" for Mondays at 9:00.'],
  ['0 9 * *', 'Invalid cron "0 9 * *": it has 4 fields; expected five fields: minute hour day-of-month month day-of-week, e.g. "0 9 * * 1" for Mondays at 9:00.'],
  ['0 0 9 * * 1', 'it has 6 fields; expected five fields: minute hour day-of-month month day-of-week, e.g. "0 9 * * 1" for Mondays at 9:00 (seconds and years are not supported).'],
  ['60 * * * *', 'Invalid cron "60 * * * *": field 1 (minute) "60": 60 is out of range: minutes run 0-59.'],
  ['0 24 * * *', 'field 2 (hour) "24": 24 is out of range: hours run 0-23.'],
  ['0 0 0 * *', 'field 3 (day-of-month) "0": 0 is out of range: days of the month run 1-31.'],
  ['0 0 * 13 *', 'field 4 (month) "13": 13 is out of range: months run 1-12.'],
  ['0 0 * * 8', 'field 5 (day-of-week) "8": 8 is out of range: days of the week run 0-7.'],
  ['0 0 * ja *', 'field 4 (month) "ja": "ja" is not a month name: write a number 1-12 or a name such as feb.'],
  ['0 0 * * funday', 'field 5 (day-of-week) "funday": "funday" is not a day-of-week name: write a number 0-7 or a name such as mon.'],
  ['0 0 ? * 1', 'field 3 (day-of-month) "?": "?" is not supported: write * for "any".'],
  ['0 0 L * *', 'field 3 (day-of-month) "L": "L": L, W and # are not supported by Temporal schedules.'],
  ['0 0 * * 1#2', 'field 5 (day-of-week) "1#2": "1#2": L, W and # are not supported by Temporal schedules.'],
  ['*/0 * * * *', 'field 1 (minute) "*/0": "*/0": the step after "/" must be a whole number of at least 1.'],
  ['1-2-3 * * * *', 'field 1 (minute) "1-2-3": "1-2-3" has more than one "-".'],
  ['1/2/3 * * * *', 'field 1 (minute) "1/2/3": "1/2/3" has more than one "/".'],
  ['0 22-2 * * *', 'field 2 (hour) "22-2": the range "22-2" runs backwards: write the smaller value first, or two items (e.g. "22-23,0-2").'],
  ['1,,2 * * * *', 'field 1 (minute) "1,,2": an empty item (two commas in a row, or a comma at an end).'],
  ['-5 * * * *', 'field 1 (minute) "-5": a range needs a value on each side of "-".'],
  ['0 9 * * 1 # weekly', 'a "#" comment is not taken here.'],
  ['CRON_TZ=Europe/Berlin 0 9 * * 1', 'a time zone prefix is not taken here: give the time zone with --timezone (the `timezone` option).'],
  ['@every 5m', '@every is an interval, not a calendar time; write it as cron fields, e.g. "*/15 * * * *" for every 15 minutes.'],
  ['@fortnightly', 'unknown shorthand; the shorthands are @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly.'],
  ['0 9 * * 1\u001b[2J', 'field 5 (day-of-week)'],
];

describe('checkCron', () => {
  it.each(ACCEPTED)('accepts %j as %j', (expression, tidied) => {
    expect(checkCron(expression)).toBe(tidied);
  });

  it.each(REFUSED)('refuses %j, naming the field and what was expected', (expression, message) => {
    let thrown: unknown;
    try {
      checkCron(expression);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidScheduleError);
    expect((thrown as Error).message).toContain(message);
  });

  it('says when both day fields are set, where Temporal needs both to match', () => {
    expect(restrictsBothDays('0 9 1-7 * 1')).toBe(true);
    expect(restrictsBothDays('0 9 * * 1')).toBe(false);
    expect(restrictsBothDays('0 9 1 * *')).toBe(false);
    expect(restrictsBothDays('@weekly')).toBe(false);
  });
});

/** The server's next firing times of `cron` (UTC), read from a paused schedule made and deleted for it. */
async function serverFirings(client: Client, cron: string): Promise<Date[]> {
  const handle = await client.schedule.create({
    scheduleId: uniqueId('cron-check'),
    spec: { cronExpressions: [cron] },
    action: { type: 'startWorkflow', workflowType: 'cronCheck', taskQueue: uniqueId('nowhere'), args: [] },
    state: { paused: true },
  });
  try {
    return (await handle.describe()).info.nextActionTimes;
  } finally {
    await handle.delete();
  }
}

describe('checkCron against the server', () => {
  let client: Client;
  beforeAll(async () => {
    client = await newClient();
  });
  afterAll(() => client?.connection.close());

  it('every expression it accepts, the server accepts and fires', async () => {
    for (const [expression] of ACCEPTED) {
      const firings = await serverFirings(client, checkCron(expression));
      expect(firings.length, expression).toBeGreaterThan(0);
    }
  });

  it('with both day fields set, the server fires only on days that match both, as the note says', async () => {
    const firstMondays = await serverFirings(client, checkCron('0 9 1-7 * 1'));
    expect(firstMondays.length).toBeGreaterThan(3);
    for (const at of firstMondays) {
      expect(at.getUTCDay()).toBe(1);
      expect(at.getUTCDate()).toBeLessThanOrEqual(7);
    }
    // 7 is Sunday, as in a crontab.
    for (const at of await serverFirings(client, checkCron('0 0 * * 7'))) expect(at.getUTCDay()).toBe(0);
  });
});
