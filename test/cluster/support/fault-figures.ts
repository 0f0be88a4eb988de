// The drill's figures for one fault: how long the runs stalled and how long until they all moved
// again, what had to run again, what the approvals sent meanwhile went through, and how many times
// each tool call's side effect happened. Printed as a markdown table (kept in bench/results/cluster.md).
import type { FakeAnthropic } from '../../support/fake-anthropic';
import { STEPS } from './drill-runs';
import type { WaveOutcome } from './drill-wave';
import type { CallError } from './retrying-client';

export interface Fault {
  what: string;
  startedAt: number;
  /** When the failed part was back (PostgreSQL accepting connections); a kill ends when it starts. */
  endedAt: number;
  /** What else the drill measured about this fault, e.g. when the shards had moved. */
  notes: string[];
}

/** A step normally takes about a second here (0.4 s of model "thinking", the tool, two workflow tasks). */
export const DELAYED_AFTER_MS = 5_000;

export interface FaultFigures {
  fault: string;
  outageS: number;
  /** Steps runs that had started and not finished their calls when the fault began. */
  runsInFlight: number;
  /** Of those, runs whose step across the fault took longer than DELAYED_AFTER_MS. */
  runsDelayed: number;
  longestStallS: number;
  /** From the end of the fault to the first model request of any run. */
  firstProgressS: number;
  /** From the end of the fault until every run in flight had made a model request. */
  allMovingS: number;
  activitiesRetried: Record<string, number>;
  activityTimeouts: number;
  workflowTaskRetries: number;
  approvals: {
    sent: number;
    deliveredAfterFault: number;
    drillRetries: number;
    appliedByAnEarlierAttempt: number;
    longestToDeliverS: number;
    /** What the drill's loop was told, by the client that was told it. */
    errors: (CallError & { client: string })[];
  };
  resultWaitRetries: number;
  grpcRetries: number;
  canary: { calls: number; once: number; twice: number; never: number; reportedError: number; errorTexts: string[] };
  waveS: number;
  afterFaultS: number;
  notes: string[];
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

export function faultFigures(outcome: WaveOutcome, fault: Fault, fake: FakeAnthropic): FaultFigures {
  const stalls: number[] = [];
  const firstAfter: number[] = [];
  for (const run of outcome.runs.filter((r) => r.kind === 'steps')) {
    const times = fake.requestsFor(run.task).map((r) => r.at).sort((a, b) => a - b);
    const before = times.filter((at) => at <= fault.startedAt);
    const after = times.find((at) => at > fault.endedAt);
    const lastIndex = fake.requestsFor(run.task).filter((r) => r.at <= fault.startedAt).reduce((max, r) => Math.max(max, r.index), -1);
    // In flight: it had asked the model, and its last call (the completion, index STEPS) had not been asked for.
    if (before.length === 0 || lastIndex >= STEPS || after === undefined) continue;
    const next = times.find((at) => at > fault.startedAt)!;
    stalls.push(next - before.at(-1)!);
    firstAfter.push(after - fault.endedAt);
  }
  const allRequestsAfter = fake.requests.filter((r) => r.at > fault.endedAt && outcome.runs.some((run) => run.task === r.match)).map((r) => r.at);
  const retried: Record<string, number> = {};
  for (const e of outcome.evidence) for (const r of e.retriedActivities) retried[r.type] = (retried[r.type] ?? 0) + 1;
  const counts = outcome.canaries.flat();
  const errors = outcome.deliveries.flatMap((d) => d.errors.map((e) => ({ ...e, client: d.sdkRetries ? 'the default client' : 'the client without SDK retries' })));
  return {
    fault: fault.what,
    outageS: seconds(fault.endedAt - fault.startedAt),
    runsInFlight: stalls.length,
    runsDelayed: stalls.filter((s) => s > DELAYED_AFTER_MS).length,
    longestStallS: seconds(Math.max(0, ...stalls)),
    firstProgressS: seconds(Math.min(...allRequestsAfter) - fault.endedAt),
    allMovingS: seconds(Math.max(0, ...firstAfter)),
    activitiesRetried: retried,
    activityTimeouts: outcome.evidence.reduce((n, e) => n + e.activityTimeouts, 0),
    workflowTaskRetries: outcome.evidence.reduce((n, e) => n + e.workflowTaskRetries, 0),
    approvals: {
      sent: outcome.deliveries.length,
      deliveredAfterFault: outcome.deliveries.filter((d) => d.deliveredAt >= fault.endedAt).length,
      drillRetries: outcome.deliveries.reduce((n, d) => n + d.attempts - 1, 0),
      appliedByAnEarlierAttempt: outcome.deliveries.filter((d) => d.appliedByAnEarlierAttempt).length,
      longestToDeliverS: seconds(Math.max(0, ...outcome.deliveries.map((d) => d.deliveredAt - d.sentAt))),
      errors,
    },
    resultWaitRetries: outcome.resultErrors.length,
    grpcRetries: outcome.grpcRetries.length,
    canary: {
      calls: counts.length,
      once: counts.filter((c) => c.ran === 1).length,
      twice: counts.filter((c) => c.ran > 1).length,
      never: counts.filter((c) => c.ran === 0).length,
      reportedError: counts.filter((c) => c.reportedError).length,
      errorTexts: counts.flatMap((c) => (c.errorText ? [`${c.marker} (ran ${c.ran}×): ${c.errorText}`] : [])),
    },
    waveS: seconds(outcome.completedAt - outcome.startedAt),
    afterFaultS: seconds(outcome.completedAt - fault.endedAt),
    notes: fault.notes,
  };
}

const byType = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([type, n]) => `${n} ${type}`)
    .join(', ') || '0';

/** The figures as markdown: one row per fault, then the errors the drill's client was given. */
export function figuresTable(all: FaultFigures[]): string {
  const lines = [
    '| fault | outage s | runs in flight / delayed > 5 s | longest stall s | first progress after s | all runs moving after s | activities retried | activity timeouts | workflow tasks retried | approvals sent / drill retries / SDK gRPC retries | canary calls: once / twice / never (error reported) | wave s (after the fault) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...all.map((f) =>
      [
        f.fault,
        f.outageS,
        `${f.runsInFlight} / ${f.runsDelayed}`,
        f.longestStallS,
        f.firstProgressS,
        f.allMovingS,
        byType(f.activitiesRetried),
        f.activityTimeouts,
        f.workflowTaskRetries,
        `${f.approvals.sent} / ${f.approvals.drillRetries} / ${f.grpcRetries}`,
        `${f.canary.calls}: ${f.canary.once} / ${f.canary.twice} / ${f.canary.never} (${f.canary.reportedError})`,
        `${f.waveS} (${f.afterFaultS})`,
      ].join(' | '),
    ).map((row) => `| ${row} |`),
  ];
  lines.push('');
  const note = (f: FaultFigures, text: string) => lines.push(`- ${f.fault}: ${text}`);
  for (const f of all) {
    for (const text of f.notes) note(f, text);
    note(f, `${f.approvals.deliveredAfterFault} of ${f.approvals.sent} approvals were delivered after the fault ended; the longest took ${f.approvals.longestToDeliverS} s from the first try`);
    const distinct = new Map<string, number>();
    for (const e of f.approvals.errors) {
      const text = `${e.client} was told \`${e.name}: ${e.message.split('\n')[0]!.slice(0, 240)}\``;
      distinct.set(text, (distinct.get(text) ?? 0) + 1);
    }
    for (const [text, n] of distinct) note(f, `sending an approval, ${text} ${n}×, and the drill retried`);
    if (f.approvals.appliedByAnEarlierAttempt > 0) {
      note(f, `${f.approvals.appliedByAnEarlierAttempt} update(s) had been applied by an attempt that reported an error; the retry was refused as already decided, and the drill confirmed the decision in the run's status`);
    }
    for (const text of f.canary.errorTexts) note(f, `the model was told call ${text.slice(0, 300)}`);
    if (f.resultWaitRetries > 0) note(f, `the drill's waits for results were given ${f.resultWaitRetries} error(s) and retried`);
  }
  return lines.join('\n');
}
