import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundle } from '@temporalio/worker';
import { RunStateSchema, type RunState } from '../core/machine/run-state';
import * as path from 'node:path';
import { RunNotForkableError } from './errors';

/**
 * Where a fork starts from: the run's state right after iteration `iteration` (its tool results in the
 * conversation), and the link of the run (the execution, across continue-as-new) that reached it.
 */
export interface ForkPoint {
  state: RunState;
  runId: string;
  /** The iterations the run reached, for the refusal of one it never reached. */
  reached: number;
  /** The mode of the last iteration the run completed, so a fork never starts looser than the run went on. */
  latestMode?: RunState['mode'];
}

type History = temporal.api.history.v1.IHistory;

/** The workflow code the worker bundles (create-agent-worker.ts), found the same way without loading the worker's modules. */
const WORKFLOWS_DIR = path.join(__dirname, '..', 'workflows');
const ext = path.extname(__filename);

/**
 * The workflow code plus the interceptor module that makes the run driver hand out its state at each
 * iteration (workflows/fork-replay.ts); a worker's bundle lacks it, so its runs never pay for this.
 * Bundling takes seconds: a process that forks again (the console) reuses the first bundle.
 */
let bundled: Promise<WorkflowBundle> | undefined;
export function forkReplayBundle(): Promise<WorkflowBundle> {
  bundled ??= bundleWorkflowCode({
    workflowsPath: path.join(WORKFLOWS_DIR, `index${ext}`),
    workflowInterceptorModules: [path.join(WORKFLOWS_DIR, `fork-replay${ext}`)],
    logger: new DefaultLogger('WARN'),
  }).catch((error: unknown) => {
    bundled = undefined;
    throw error;
  });
  return bundled;
}

/**
 * Every link of the run, oldest first, each with its history. A link's first event names the link it
 * continues (`continuedExecutionRunId`), so the chain is walked back from the newest one through the
 * histories alone: no visibility query, which may lag.
 */
export async function chainOf(client: Client, workflowId: string): Promise<{ runId: string; history: History }[]> {
  const links: { runId: string; history: History }[] = [];
  let runId: string | undefined;
  try {
    runId = (await client.workflow.getHandle(workflowId).describe()).runId;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) throw new RunNotForkableError(`There is no run ${workflowId} (check the id with agentctl list).`);
    throw error;
  }
  while (runId) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    links.unshift({ runId, history });
    runId = history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  }
  return links;
}

/**
 * Reads the state the run had after iteration `iteration` by replaying its histories with the
 * `agentRun` code: the replay hands out the state at each completed iteration (fork-point.ts in the
 * contract). Why a replay: it gives the exact state (conversation blocks verbatim, tasks, choices,
 * usage) for a closed run, a running one, and any link of a continue-as-new chain, without a worker
 * and without a checkpoint stored per iteration (which would cost every run an activity per turn).
 */
export async function readForkPoint(client: Client, workflowId: string, iteration: number): Promise<ForkPoint> {
  const links = await chainOf(client, workflowId);
  const found = new Map<number, { state: unknown; runId: string }>();
  const workflowBundle = await forkReplayBundle();
  const replays = Worker.runReplayHistories(
    {
      workflowBundle,
      dataConverter: client.options.dataConverter,
      replayName: `fork-${workflowId}`,
      sinks: {
        // Live-only sinks are dropped by a replay; registered so the replayer does not log them as unknown.
        lifecycle: { emit: { fn: () => undefined } },
        forkPoints: {
          iterationEnded: {
            fn: (info, state: unknown) => {
              const n = (state as { iteration?: number }).iteration;
              if (typeof n === 'number' && !found.has(n)) found.set(n, { state, runId: info.runId });
            },
            callDuringReplay: true,
          },
        },
      },
    },
    links.map((link) => ({ workflowId, history: link.history })),
  );
  for await (const result of replays) {
    if (result.error) throw new RunNotForkableError(`Could not read run ${workflowId} (link ${result.runId}): its history does not replay with this release's code (${result.error.message}).`);
  }
  const reached = Math.max(0, ...found.keys());
  const point = found.get(iteration);
  if (!point) {
    const which = reached === 0 ? 'has not completed an iteration yet' : `reached iteration ${reached}`;
    throw new RunNotForkableError(`Run ${workflowId} never completed iteration ${iteration}: it ${which}. Fork it at an iteration from 1 to ${Math.max(reached, 1)}.`);
  }
  const latestMode = (found.get(reached)?.state as { mode?: RunState['mode'] } | undefined)?.mode;
  return { state: RunStateSchema.parse(point.state), runId: point.runId, reached, latestMode };
}
