// A schedule's name, time zone, overlap and run input, checked before anything is created; and the
// memo a schedule carries, read back from the committed fixture of each version.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidRunRequestError, InvalidScheduleError } from '../../src/client/errors';
import {
  canonicalTimezone,
  checkOverlap,
  checkScheduledInput,
  checkScheduleName,
  readScheduleMemo,
  SCHEDULE_MEMO_KEY,
} from '../../src/client/schedules-settings';
import type { AgentRunInput } from '../../src/contract/run-input';
import { newClient, uniqueId } from '../support/temporal';

const refusal = (check: () => unknown): Error => {
  try {
    check();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal');
};

describe('checkScheduleName', () => {
  it.each(['weekly-triage', 'a', 'Nightly.build_2'])('accepts %j', (name) => {
    expect(checkScheduleName(name)).toBe(name);
  });

  it.each(['', '-leading-dash', 'has space', 'a/b', '../up', 'x\u202eevil', 'x\nline', 'café', 'x'.repeat(101)])('refuses %j with what a name may hold', (name) => {
    const error = refusal(() => checkScheduleName(name));
    expect(error).toBeInstanceOf(InvalidScheduleError);
    expect(error.message).toBe(
      `Invalid schedule name ${JSON.stringify(name)}: use letters, digits, ".", "_" and "-", starting with a letter or digit, at most 100 characters (e.g. weekly-triage).`,
    );
  });
});

describe('canonicalTimezone', () => {
  it('returns the IANA spelling the server loads, whatever the case given', () => {
    expect(canonicalTimezone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(canonicalTimezone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalTimezone('utc')).toBe('UTC');
  });

  it.each(['Mars/Olympus_Mons', 'Berlin', '', 'Europe/Berlin\u0000'])('refuses %j, saying what to give', (timezone) => {
    const error = refusal(() => canonicalTimezone(timezone));
    expect(error).toBeInstanceOf(InvalidScheduleError);
    expect(error.message).toBe(`Unknown time zone ${JSON.stringify(timezone)}: give an IANA name such as Europe/Berlin, America/New_York or UTC.`);
  });

  it('refuses an offset, which the server cannot load', () => {
    // Node 20's ICU refuses offsets itself; later ICUs accept them, and the second check refuses them.
    const error = refusal(() => canonicalTimezone('+01:00'));
    expect(error).toBeInstanceOf(InvalidScheduleError);
    expect(error.message).toMatch(/^(Unknown time zone "\+01:00"|Time zone "\+01:00" is an offset)/);
  });
});

describe('checkOverlap', () => {
  it('takes the four policies and refuses anything else with the list', () => {
    for (const overlap of ['skip', 'buffer_one', 'allow_all', 'cancel_other']) expect(checkOverlap(overlap)).toBe(overlap);
    expect(refusal(() => checkOverlap('SKIP')).message).toBe('Unknown overlap policy "SKIP": use one of skip, buffer_one, allow_all, cancel_other.');
    expect(refusal(() => checkOverlap('terminate_other'))).toBeInstanceOf(InvalidScheduleError);
  });
});

describe('checkScheduledInput', () => {
  const base = { agent: 'general', task: 'Triage' };

  it('accepts a run input with rules, approvers and a budget', () => {
    const input: AgentRunInput = {
      ...base,
      approvers: ['alice'],
      maxIterations: 10,
      toolApproval: { alwaysRejected: [{ tool: 'shell', command: 'rm' }], scopes: { write: 'ask' } },
      historyBudget: { maxEvents: 500 },
      outputSchema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
    };
    expect(checkScheduledInput(input)).toMatchObject({ agent: 'general', approvers: ['alice'], maxIterations: 10 });
  });

  it('refuses a field the schema would drop, at any depth, naming it and the top-level fields', () => {
    const error = refusal(() => checkScheduledInput({ ...base, maxIteration: 10 } as AgentRunInput));
    expect(error).toBeInstanceOf(InvalidRunRequestError);
    expect(error.message).toMatch(/^Invalid run input: unknown field "maxIteration" \(a typo\?\)\. Top-level fields: agent, task, maxIterations, /);
    expect(error.message).not.toContain('checkpoint');
    const nested = refusal(() => checkScheduledInput({ ...base, toolApproval: { alwaysRejectd: ['shell'], alwaysApproved: [{ tool: 'shell', comand: 'ls' }] } } as unknown as AgentRunInput));
    expect(nested.message).toMatch(/^Invalid run input: unknown fields "toolApproval\.alwaysRejectd", "toolApproval\.alwaysApproved\[0\]\.comand" \(a typo\?\)/);
  });

  it.each(['checkpoint', 'resumedFrom', 'copyWorkspaceOf', 'parent', 'resume'])('refuses the internal field %s, which would make every firing restart another run', (field) => {
    const value = field === 'parent' ? { workflowId: 'w', rootWorkflowId: 'w', depth: 1 } : field === 'resume' ? { fromWorkflowId: 'w', previousOutcome: 'x' } : 'agent-general-1';
    const error = refusal(() => checkScheduledInput({ ...base, [field]: value } as AgentRunInput));
    expect(error).toBeInstanceOf(InvalidRunRequestError);
    expect(error.message).toBe(`Invalid run input: ${field} is internal (set by resume, fork or a parent run) and cannot start scheduled runs.`);
  });

  it('refuses what the run-input schema refuses, as startRun does', () => {
    expect(refusal(() => checkScheduledInput({ ...base, maxIterations: -1 })).message).toMatch(/^Invalid run input:\n- maxIterations: /);
    expect(refusal(() => checkScheduledInput({ agent: 'general', task: '' })).message).toContain('- task: task must describe the work to do');
    expect(refusal(() => checkScheduledInput({ ...base, outputSchema: { type: 'nonsense' } })).message).toMatch(/^Invalid run input: outputSchema/);
    expect(refusal(() => checkScheduledInput([] as unknown as AgentRunInput)).message).toBe('Invalid run input: it must be a JSON object.');
  });
});

describe('schedule memo', () => {
  const fixtures = path.join(__dirname, '..', 'fixtures', 'schedule-memo');

  it('reads the memo of version 1 from its fixture, and nothing from a memo of another tool', () => {
    const v1 = JSON.parse(readFileSync(path.join(fixtures, 'v1.json'), 'utf8')) as Record<string, unknown>;
    expect(readScheduleMemo({ [SCHEDULE_MEMO_KEY]: v1 })).toEqual(v1);
    expect(readScheduleMemo({ owner: 'another-team' })).toBeUndefined();
    expect(readScheduleMemo(undefined)).toBeUndefined();
    expect(readScheduleMemo({ [SCHEDULE_MEMO_KEY]: { ...v1, version: 2 } })).toBeUndefined();
  });
});

describe('canonicalTimezone against the server', () => {
  let client: Client;
  beforeAll(async () => {
    client = await newClient();
  });
  afterAll(() => client?.connection.close());

  it('every name it returns, the server loads', async () => {
    for (const given of ['europe/berlin', 'America/New_York', 'US/Pacific', 'Etc/GMT-1', 'asia/kolkata', 'UTC']) {
      const timezone = canonicalTimezone(given);
      const handle = await client.schedule.create({
        scheduleId: uniqueId('tz-check'),
        spec: { cronExpressions: ['0 9 * * 1'], timezone },
        action: { type: 'startWorkflow', workflowType: 'tzCheck', taskQueue: uniqueId('nowhere'), args: [] },
        state: { paused: true },
      });
      expect((await handle.describe()).spec.timezone, given).toBe(timezone);
      await handle.delete();
    }
  });
});
