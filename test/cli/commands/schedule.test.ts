// `agentctl schedule`: the verbs as a person types them (the real binary for `create`, the CLI's main()
// in this process for the rest, to spare a process start per verb), against the dev server and a worker
// whose model is the fake; and bad input refused with the usage line before anything connects.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/cli';
import { useAgentTestbed } from '../../support/agent-testbed';
import { waitFor, withAgentWorker } from '../../support/agent-run-harness';
import { reply, toolCall } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';
import { firingIdPattern, removeSchedule, waitForPoller } from '../../support/schedules';
import { agentctl } from '../../client/agentctl-process';

/** `agentctl <argv>` in this process, with `env` over the environment: its exit code, stdout and stderr. */
async function inProcess(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
  for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
  try {
    return { code: await main(argv), stdout: out.join(''), stderr: err.join('') };
  } finally {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  }
}

async function jsonFile(content: unknown): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'schedule-input-')), 'run.json');
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('agentctl schedule', () => {
  const bed = useAgentTestbed();
  afterEach(() => vi.restoreAllMocks());

  it('create, list, describe, pause, unpause, trigger and delete, as a person types them', async () => {
    const name = uniqueId('cli-weekly');
    const task = uniqueId('cli-scheduled');
    bed.fake.script(task, [reply(toolCall('complete_task', { summary: 'triaged', status: 'success' }))]);
    const input = await jsonFile({ approvers: ['alice'], maxIterations: 7, toolApproval: { alwaysRejected: ['shell'] } });
    await withAgentWorker(bed.harness(), async (h) => {
      const env = { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: h.taskQueue, USER: 'tester' };
      try {
        await waitForPoller(h.client, h.taskQueue);
        const created = await agentctl(['schedule', 'create', name, '--agent', 'general', '--task', task, '--cron', '0 9 * * 1', '--timezone', 'Europe/Berlin', '--input', input], env);
        expect(created.stderr).toBe('');
        expect(created.code).toBe(0);
        expect(created.stdout).toContain(`Created schedule ${name}: agent general, "0 9 * * 1" in Europe/Berlin, overlap skip.`);
        expect(created.stdout).toMatch(/^Next firings: \d{4}-\d\d-\d\d 09:00 Europe\/Berlin \(0[78]:00 UTC\), /m);
        expect(created.stdout).toContain(`Its runs are named schedule-${name}-<time>; see them with agentctl list --agent general.`);

        const described = await inProcess(['schedule', 'describe', name, '--json'], env);
        expect(described.code).toBe(0);
        expect(JSON.parse(described.stdout)).toMatchObject({
          name,
          overlap: 'skip',
          taskQueue: h.taskQueue,
          // The file's fields, the flags' agent and task, and the person who made it as the runs' user.
          input: { agent: 'general', task, approvers: ['alice'], maxIterations: 7, toolApproval: { alwaysRejected: ['shell'] }, user: 'tester' },
        });

        const paused = await inProcess(['schedule', 'pause', name], env);
        expect(paused).toMatchObject({ code: 0, stdout: `Paused ${name}: no firing until agentctl schedule unpause ${name}.\n` });
        const whilePaused = await inProcess(['schedule', 'describe', name], env);
        expect(whilePaused.stdout).toContain(`Schedule ${name}: paused (Paused by tester with agentctl)`);
        expect(whilePaused.stdout).toMatch(/^ {2}Next: +\(paused\)$/m);
        expect((await inProcess(['schedule', 'unpause', name, '--note', 'back from holidays'], env)).stdout).toBe(`Unpaused ${name}.\n`);

        const triggered = await inProcess(['schedule', 'trigger', name, '--json'], env);
        expect(triggered.code).toBe(0);
        const { outcome, workflowId } = JSON.parse(triggered.stdout) as { outcome: string; workflowId: string };
        expect(outcome).toBe('started');
        expect(workflowId).toMatch(firingIdPattern(name));
        expect(await h.client.workflow.getHandle(workflowId).result()).toMatchObject({ status: 'completed', completion: { summary: 'triaged' } });

        // The list reads Temporal's visibility store, which follows a change after a moment.
        const row = new RegExp(`^${name} +general +0 9 \\* \\* 1 +Europe/Berlin +active +\\d{4}-\\d\\d-\\d\\d 09:00 Europe/Berlin +${workflowId}$`, 'm');
        const listed = await waitFor(async () => {
          const list = await inProcess(['schedule', 'list'], env);
          return row.test(list.stdout) ? list : undefined;
        }, `${name} listed with its run`);
        expect(listed.stdout).toMatch(/^NAME +AGENT +CRON +TIMEZONE +STATE +NEXT FIRING +LAST RUN$/m);
        const description = await inProcess(['schedule', 'describe', name], env);
        expect(description.stdout).toContain('  Overlap:     skip: a firing while a run of this schedule is open (parked on approval included) is skipped');
        expect(description.stdout).toContain(`    ${workflowId}  started `);

        expect(await inProcess(['schedule', 'delete', name], env)).toMatchObject({ code: 0, stdout: `Deleted ${name}.\n` });
        const gone = await inProcess(['schedule', 'describe', name], env);
        expect(gone).toMatchObject({ code: 1, stderr: `No schedule named "${name}". List them with agentctl schedule list.\n` });
      } finally {
        await removeSchedule(h.client, name);
      }
    });
  });

  it('says so for a name that exists and an unknown agent, exit 1, and changes nothing', async () => {
    const name = uniqueId('cli-taken');
    await withAgentWorker(bed.harness(), async (h) => {
      const env = { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: h.taskQueue, USER: 'tester' };
      try {
        await waitForPoller(h.client, h.taskQueue);
        expect((await inProcess(['schedule', 'create', name, '--agent', 'general', '--task', 'first', '--cron', '@daily'], env)).code).toBe(0);
        const again = await inProcess(['schedule', 'create', name, '--agent', 'general', '--task', 'second', '--cron', '@hourly'], env);
        expect(again).toMatchObject({ code: 1, stderr: `A schedule named "${name}" exists; pick another name, or delete it first (agentctl schedule delete ${name}).\n` });
        const unknown = await inProcess(['schedule', 'create', uniqueId('cli-helper'), '--agent', 'helper', '--task', 't', '--cron', '@daily'], env);
        expect(unknown.code).toBe(1);
        expect(unknown.stderr).toMatch(new RegExp(`^Unknown agent "helper"\\. Agents on task queue "${h.taskQueue}": .*general`));
        expect(JSON.parse((await inProcess(['schedule', 'describe', name, '--json'], env)).stdout)).toMatchObject({ task: 'first', cron: '@daily' });
      } finally {
        await removeSchedule(h.client, name);
      }
    });
  });

  it('creates a schedule paused, then updates its cron, time zone, overlap and input in place', async () => {
    const name = uniqueId('cli-update');
    const input = await jsonFile({ agent: 'general', task: 'Triage the new issues', approvers: ['carol'] });
    await withAgentWorker(bed.harness(), async (h) => {
      const env = { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: h.taskQueue, USER: 'tester' };
      try {
        await waitForPoller(h.client, h.taskQueue);
        const created = await inProcess(['schedule', 'create', name, '--agent', 'general', '--task', 'Triage', '--cron', '0 9 * * 1', '--paused'], env);
        expect(created).toMatchObject({ code: 0, stderr: '' });
        expect(created.stdout).toContain(`Created schedule ${name}: agent general, "0 9 * * 1" in UTC, overlap skip, paused.`);
        expect(JSON.parse((await inProcess(['schedule', 'describe', name, '--json'], env)).stdout)).toMatchObject({ paused: true, note: 'Created paused by tester with agentctl' });

        // A bad change is refused before anything changes, even once connected (an unknown agent, exit 1).
        const otherAgent = await jsonFile({ agent: 'helper' });
        const refused = await inProcess(['schedule', 'update', name, '--input', otherAgent, '--cron', '@daily'], env);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toMatch(/^Unknown agent "helper"/);
        expect(JSON.parse((await inProcess(['schedule', 'describe', name, '--json'], env)).stdout)).toMatchObject({ cron: '0 9 * * 1', task: 'Triage' });

        const updated = await inProcess(['schedule', 'update', name, '--cron', '15 8 * * 1-5', '--timezone', 'Europe/Berlin', '--overlap', 'buffer_one', '--input', input, '--task', 'Triage, then label'], env);
        expect(updated).toMatchObject({ code: 0, stderr: '' });
        expect(updated.stdout).toContain(`Updated schedule ${name} (cron, timezone, overlap, input): agent general, "15 8 * * 1-5" in Europe/Berlin, overlap buffer_one, paused.`);
        expect(updated.stdout).toContain('Its next runs get task: Triage, then label');
        const described = JSON.parse((await inProcess(['schedule', 'describe', name, '--json'], env)).stdout) as Record<string, unknown>;
        // The file's fields replace the input; the task flag wins over the file's; the maker stays the runs' user.
        expect(described).toMatchObject({ cron: '15 8 * * 1-5', timezone: 'Europe/Berlin', overlap: 'buffer_one', paused: true, input: { agent: 'general', task: 'Triage, then label', approvers: ['carol'], user: 'tester' } });
        const again = await inProcess(['schedule', 'update', name, '--cron', '15 8 * * 1-5'], env);
        expect(again.stdout).toBe(`Schedule ${name} already had these settings; nothing changed.\n`);
      } finally {
        await removeSchedule(h.client, name);
      }
    });
  });

  it('refuses bad input with the usage line and exit 2 before it connects', async () => {
    // Nothing listens there: a refusal that reached for the server would say "Cannot reach Temporal".
    const env = { TEMPORAL_ADDRESS: '127.0.0.1:1', USER: 'tester' };
    const create = ['schedule', 'create', 'nightly', '--agent', 'general', '--task', 'Triage'];
    const unknownField = await jsonFile({ maxIteration: 3 });
    const internal = await jsonFile({ checkpoint: { phase: 'running' } });
    const otherAgent = await jsonFile({ agent: 'reader' });
    const notJson = await jsonFile('{ approvers: alice');
    const cases: [string[], string][] = [
      [[...create, '--cron', '0 9 * * 8'], 'Invalid cron "0 9 * * 8": field 5 (day-of-week) "8": 8 is out of range: days of the week run 0-7.'],
      [[...create, '--cron', '0 9 * * 1', '--timezone', 'Europe/Paris2'], 'Unknown time zone "Europe/Paris2": give an IANA name such as Europe/Berlin, America/New_York or UTC.'],
      [[...create, '--cron', '0 9 * * 1', '--overlap', 'never'], 'Unknown overlap policy "never": use one of skip, buffer_one, allow_all, cancel_other.'],
      [[...create, '--cron', '0 9 * * 1', '--input', unknownField], 'Invalid run input: unknown field "maxIteration" (a typo?). Top-level fields: agent, task, maxIterations,'],
      [[...create, '--cron', '0 9 * * 1', '--input', internal], 'Invalid run input: checkpoint is internal (set by resume, fork or a parent run) and cannot start scheduled runs.'],
      [[...create, '--cron', '0 9 * * 1', '--input', otherAgent], `--agent "general" differs from the agent in ${otherAgent}; give it in one place`],
      [[...create, '--cron', '0 9 * * 1', '--input', notJson], `--input must name a JSON file holding a run input (${notJson}: `],
      [[...create, '--cron', '0 9 * * 1', '--input', '/nonexistent/run.json'], '--input must name a JSON file holding a run input (/nonexistent/run.json: ENOENT'],
      [[...create], 'schedule create needs --cron, e.g. --cron "0 9 * * 1" for Mondays at 9:00'],
      [['schedule', 'create', 'nightly', '--task', 'Triage', '--cron', '@daily'], 'schedule create needs --agent (or "agent" in the --input file)'],
      [['schedule', 'create', 'bad name', '--agent', 'general', '--task', 'Triage', '--cron', '@daily'], 'Invalid schedule name "bad name": use letters, digits'],
      [['schedule', 'pause'], 'schedule pause needs exactly one schedule name (see agentctl schedule list)'],
      [['schedule', 'trigger', 'nightly', '--overlap', 'twice'], 'Unknown overlap policy "twice"'],
      [['schedule', 'reschedule', 'nightly'], 'Unknown schedule subcommand "reschedule"'],
      [['schedule'], 'schedule needs a subcommand: create, update, list, describe, pause, unpause, trigger or delete'],
      [['schedule', 'update', 'nightly', '--cron', '0 9 * * 8'], 'Invalid cron "0 9 * * 8": field 5 (day-of-week) "8": 8 is out of range'],
      [['schedule', 'update', 'nightly', '--timezone', 'Europe/Paris2'], 'Unknown time zone "Europe/Paris2"'],
      [['schedule', 'update', 'nightly', '--overlap', 'never'], 'Unknown overlap policy "never"'],
      [['schedule', 'update', 'nightly', '--input', unknownField], 'Invalid run input: unknown field "maxIteration" (a typo?)'],
      [['schedule', 'update', 'nightly', '--input', internal], 'Invalid run input: checkpoint is internal'],
      [['schedule', 'update', 'nightly', '--input', notJson], `--input must name a JSON file holding a run input (${notJson}: `],
      [['schedule', 'update', 'nightly', '--agent', 'reader'], 'schedule update takes no --agent: give "agent" in the --input file'],
      [['schedule', 'update', 'nightly'], 'schedule update needs at least one of --cron, --timezone, --task, --overlap or --input'],
      [['schedule', 'update', '--cron', '@daily'], 'schedule update needs exactly one schedule name'],
    ];
    for (const [argv, message] of cases) {
      const { code, stderr } = await inProcess(argv, env);
      expect(stderr, argv.join(' ')).toContain(message);
      expect(stderr).toContain('\nUsage: agentctl schedule create <name> --agent A --task "..." --cron "0 9 * * 1"');
      expect(code).toBe(2);
    }
  });
});
