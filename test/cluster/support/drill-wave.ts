// One wave of the drill: 30 runs in flight (20 that make canary calls one after another, 10 parked
// on an approval), a fault while they run, approvals sent while it lasts, and everything the drill
// checks afterwards collected in one place.
import type { Cluster } from '../../../scripts/cluster/cluster';
import type { AgentRunResult } from '../../../src/contract/run-result';
import { statusQuery } from '../../../src/contract/agent-run-api';
import { startRun } from '../../../src/client/start-run';
import { waitFor, waitForApprovals } from '../../support/agent-run-harness';
import type { FakeAnthropic } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';
import { canaryCounts, evidenceOf, scriptDrillRun, STEPS, type CanaryCount, type DrillRun, type RunEvidence } from './drill-runs';
import { deliverApproval, retrying, type ApprovalDelivery, type CallError, type DrillClients, type GrpcRetry } from './retrying-client';

export const STEPS_RUNS = 20;
export const APPROVAL_RUNS = 10;

export interface DrillContext extends DrillClients {
  cluster: Cluster;
  fake: FakeAnthropic;
}

export interface WaveOutcome {
  runs: DrillRun[];
  startedAt: number;
  completedAt: number;
  results: AgentRunResult[];
  /** Errors the drill's waits for the results were given (and retried). */
  resultErrors: CallError[];
  evidence: RunEvidence[];
  canaries: CanaryCount[][];
  deliveries: ApprovalDelivery[];
  /** gRPC retries the client made on its own during the wave. */
  grpcRetries: GrpcRetry[];
}

export class Wave {
  readonly runs: DrillRun[];
  readonly startedAt = Date.now();
  private deliveries: Promise<ApprovalDelivery>[] = [];

  private constructor(
    private readonly ctx: DrillContext,
    readonly label: string,
  ) {
    const suffix = uniqueId(label);
    this.runs = [
      ...Array.from({ length: STEPS_RUNS }, (_, i) => scriptDrillRun(ctx.fake, 'steps', i + 1, suffix)),
      ...Array.from({ length: APPROVAL_RUNS }, (_, i) => scriptDrillRun(ctx.fake, 'approval', i + 1, suffix)),
    ];
  }

  /**
   * Starts the 30 runs: the approval runs first, parked on their calls before the steps runs start,
   * so that the steps runs are under way, not finished, when the fault comes.
   */
  static async start(ctx: DrillContext, label: string): Promise<Wave> {
    const wave = new Wave(ctx, label);
    const start = async (run: DrillRun) => {
      const toolApproval = run.alwaysApproved ? { alwaysApproved: run.alwaysApproved } : undefined;
      run.handle = await startRun(ctx.client, { agent: 'general', task: run.task, toolApproval }, { taskQueue: ctx.cluster.taskQueue, workflowId: uniqueId(`drill-${label}`) });
    };
    for (const run of wave.approvalRuns) await start(run);
    await Promise.all(wave.approvalRuns.map((run) => waitForApprovals(run.handle!, 1, 60_000)));
    for (const run of wave.runs.filter((r) => r.kind === 'steps')) await start(run);
    return wave;
  }

  get approvalRuns(): DrillRun[] {
    return this.runs.filter((run) => run.kind === 'approval');
  }

  /** The model requests of this wave's steps runs, in arrival order. */
  stepsRequests() {
    const tasks = new Set(this.runs.filter((run) => run.kind === 'steps').map((run) => run.task));
    return this.ctx.fake.requests.filter((r) => r.match !== undefined && tasks.has(r.match));
  }

  /** Waits until a quarter of the steps runs' model calls are made, and `also` holds. */
  async quarterWay(also: () => boolean = () => true): Promise<void> {
    const quarter = (STEPS_RUNS * (STEPS + 1)) / 4;
    try {
      await waitFor(async () => (this.stepsRequests().length >= quarter && also() ? true : undefined), `the ${this.label} wave to be a quarter of the way through`, 60_000);
    } catch (error) {
      // Say where the steps runs are (parked on an approval the rule should have given, failed...).
      const phases = await Promise.all(this.runs.filter((run) => run.kind === 'steps').map((run) => run.handle!.query(statusQuery).then((s) => s.phase, (e: unknown) => String(e))));
      const byHost = new Map<string, number>();
      for (const r of this.stepsRequests()) byHost.set(r.remoteAddress ?? '?', (byHost.get(r.remoteAddress ?? '?') ?? 0) + 1);
      throw new Error(`${(error as Error).message}: ${this.stepsRequests().length} of ${quarter} model calls made (by host ${[...byHost].map(([host, n]) => `${host}: ${n}`).join(', ')}); the steps runs are ${[...new Set(phases)].join(', ')}`);
    }
  }

  /**
   * Sends every approval run's decision, each retried until delivered: half by update and half by
   * signal, and of each half some by the client as users get it and the others by the bare client.
   */
  sendApprovals(): void {
    this.deliveries = this.approvalRuns.map((run, i) => {
      const sdkRetries = i < APPROVAL_RUNS / 2;
      const options = { taskQueue: this.ctx.cluster.taskQueue, workflowId: run.handle!.workflowId, via: i % 2 === 0 ? ('update' as const) : ('signal' as const), sdkRetries, withinMs: 180_000 };
      return deliverApproval(sdkRetries ? this.ctx.client : this.ctx.bareClient, options);
    });
  }

  /** How many runs had ended when this is called. */
  async runsEnded(): Promise<number> {
    const described = await Promise.all(this.runs.map((run) => run.handle!.describe()));
    return described.filter((d) => d.status.name !== 'RUNNING').length;
  }

  /** Waits for every run's result (retrying the wait through outages) and collects the evidence. */
  async finish(): Promise<WaveOutcome> {
    const deliveries = await Promise.all(this.deliveries);
    const resultErrors: CallError[] = [];
    const results = await Promise.all(
      this.runs.map(async (run) => {
        const waited = await retrying(() => run.handle!.result() as Promise<AgentRunResult>, { withinMs: 240_000 });
        resultErrors.push(...waited.errors);
        return waited.value;
      }),
    );
    const completedAt = Date.now();
    const evidence = await Promise.all(this.runs.map((run) => evidenceOf(run.handle!)));
    const canaries = await Promise.all(this.runs.map((run) => canaryCounts(run, this.ctx.cluster.workspace, this.ctx.fake)));
    const grpcRetries = this.ctx.grpcRetries.filter((r) => r.at >= this.startedAt);
    return { runs: this.runs, startedAt: this.startedAt, completedAt, results, resultErrors, evidence, canaries, deliveries, grpcRetries };
  }
}
