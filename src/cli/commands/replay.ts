import { readFile } from 'node:fs/promises';
import { DefaultLogger, makeTelemetryFilterString, Runtime, type LogEntry } from '@temporalio/worker';
import type { CliContext, Command } from '../../client/cli-context';
import { stringFlag } from '../../client/approval-helpers';
import { UsageError } from '../../client/errors';
import { cliBodies, openCliLab, replaySettings, type ReplayFlags } from '../../client/replay/cli-lab';
import { exportRecordedRun, parseRecordedRunFile, recordedRunFromFile } from '../../client/replay/recorded-run-file';
import { renderBulkSummary, replayMany } from '../../client/replay/replay-bulk';
import { recordedEnding } from '../../client/replay/recorded-source';
import { renderReport } from '../../client/replay/replay-report';
import { REPLAY_STOPPED } from '../../client/replay/shadow-model-client';
import { effortFlag } from './run';

/**
 * The replay reads histories and runs a worker in this process; Temporal's INFO lines would drown the
 * report, and so would the warnings of a shadow's model call the replay stopped on purpose (and the
 * core's note that the terminated run no longer takes that call's completion). Other warnings show.
 */
function quietShadowLogs(): void {
  const stoppedOnPurpose = (entry: LogEntry) => (entry.meta?.error as { type?: string } | undefined)?.type === REPLAY_STOPPED;
  const logger = new DefaultLogger('WARN', (entry) => {
    const error = entry.meta?.error as Error | undefined;
    if (!stoppedOnPurpose(entry)) process.stderr.write(`${entry.level} ${entry.message}${error?.message ? `: ${error.message}` : ''}\n`);
  });
  try {
    Runtime.install({ logger, telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR', other: 'ERROR' }) } } });
  } catch {
    // A runtime exists already in this process: keep it.
  }
}

/** Exit code when a replayed run diverged from its record (0: none did; 1: an error; 2: a usage error). */
export const DIVERGED_EXIT_CODE = 3;

const DECIDE = ['reject', 'approve', 'stop'] as const;

function wholeNumber(ctx: CliContext, name: string, fallback: number): number {
  const raw = stringFlag(ctx, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--${name} must be a whole number from 1, not "${raw}"`);
  return value;
}

function replayFlags(ctx: CliContext): ReplayFlags {
  const decide = stringFlag(ctx, 'decide') ?? 'stop';
  if (!(DECIDE as readonly string[]).includes(decide)) throw new UsageError(`--decide must be one of ${DECIDE.join(', ')} (got "${decide}")`);
  const agentFile = stringFlag(ctx, 'agent-file');
  const model = stringFlag(ctx, 'model');
  const effort = effortFlag(stringFlag(ctx, 'effort'));
  return {
    ...(agentFile ? { agentFile } : {}),
    ...(model ? { model } : {}),
    ...(effort ? { effort } : {}),
    liveModel: ctx.args.flags['live-model'] === true,
    decide: decide as ReplayFlags['decide'],
    noCost: ctx.args.flags['no-cost'] === true,
  };
}

/** `--export <id>`: the run as a recorded-run file on stdout, for `replayRecordedRun` in a test. */
async function exportRun(ctx: CliContext, workflowId: string): Promise<number> {
  const { bodies, close } = cliBodies(replaySettings(process.env));
  try {
    const file = await exportRecordedRun(await ctx.client(), workflowId, bodies);
    for (const missing of file.bodies.missing) process.stderr.write(`Not in the export: ${missing}. A replay without --live-model does not need it.\n`);
    process.stdout.write(`${JSON.stringify(file)}\n`);
    return 0;
  } finally {
    await close();
  }
}

/**
 * `agentctl replay <workflowId>`: re-runs a closed or parked run in a shadow (a run of its own on a
 * task queue this process serves) with the agents of --agent-file (or the worker's), a model or effort
 * of its own; reports where it left the recorded run. Side effects never run. `--query` replays many,
 * `--export` writes a run for `replayRecordedRun`, `--file` replays such a file.
 */
export const replayCommand: Command = {
  name: 'replay',
  usage: [
    'agentctl replay <workflowId> [--agent-file agents.yaml] [--model id] [--effort e] [--live-model] [--decide reject|approve|stop] [--no-cost] [--json]',
    '       agentctl replay --query "<visibility query>" [--limit N] [--concurrency K] [same flags]',
    '       agentctl replay --export <workflowId> > run.json',
    '       agentctl replay --file run.json [same flags]',
  ].join('\n'),
  summary: 'replay a finished or parked run in a shadow (side effects stubbed) and report where it diverges',
  async run(ctx) {
    const [workflowId, ...extra] = ctx.args.positionals;
    const exported = stringFlag(ctx, 'export');
    const query = stringFlag(ctx, 'query');
    const file = stringFlag(ctx, 'file');
    const forms = [workflowId, exported, query, file].filter((v) => v !== undefined);
    if (forms.length !== 1 || extra.length > 0) throw new UsageError('replay needs exactly one of: a workflow id, --query "...", --export <workflowId> or --file run.json');
    quietShadowLogs();
    if (exported) return exportRun(ctx, exported);
    const flags = replayFlags(ctx);
    const limit = wholeNumber(ctx, 'limit', 20);
    const concurrency = wholeNumber(ctx, 'concurrency', 4);
    const client = await ctx.client();
    // An unknown or still-working run is refused before the shadow worker starts (which takes seconds).
    if (workflowId) await recordedEnding(client, workflowId);
    const { lab, close } = await openCliLab(client, ctx.settings, process.env, ctx.clientSettings.console.modelPricesFile, flags);
    try {
      if (query) {
        const report = await replayMany(lab, client, { query, limit, concurrency, onProgress: (line) => process.stderr.write(`${line}\n`) });
        ctx.print(report, () => renderBulkSummary(report));
        return report.summary.diverged > 0 ? DIVERGED_EXIT_CODE : report.summary.notReplayed > 0 ? 1 : 0;
      }
      const report = file
        ? await readFile(file, 'utf8').catch((error: Error) => {
            throw new UsageError(`--file ${file} cannot be read (${error.message}); write one with \`agentctl replay --export <workflowId> > run.json\``);
          }).then(async (text) => {
            const { recorded, bodies } = await recordedRunFromFile(parseRecordedRunFile(text, file), file);
            return lab.replayRecorded(recorded, bodies);
          })
        : await lab.replay(workflowId!);
      ctx.print(report, () => renderReport(report));
      return report.diverged ? DIVERGED_EXIT_CODE : 0;
    } finally {
      await close();
    }
  },
};
