import { ActivityFailure, ApplicationFailure, proxySinks, type WorkflowInterceptorsFactory } from '@temporalio/workflow';
import type { RecordedEntry, ReplayLabSinks } from '../contract/replay-lab';

/**
 * A workflow interceptor module bundled only into the code the replay lab reads recorded runs with
 * (src/client/replay/recorded-run.ts), never into a worker's bundle. It changes nothing: it hands
 * each activity call (input and result, local ones included), each message a person sent in and the
 * run's input and result to a sink (contract/replay-lab.ts) while the history replays.
 */
const { replayLab } = proxySinks<ReplayLabSinks>();

function failureOf(error: unknown): { message: string; type?: string } {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  const type = cause instanceof ApplicationFailure ? cause.type : undefined;
  return { message: cause instanceof Error ? cause.message : String(cause), ...(type ? { type } : {}) };
}

async function recordCall<T>(activity: string, local: boolean, args: unknown[], call: () => Promise<T>): Promise<T> {
  const input = args[0];
  try {
    const result = await call();
    replayLab.recorded({ kind: 'activity', activity, local, input, result } satisfies RecordedEntry);
    return result;
  } catch (error) {
    replayLab.recorded({ kind: 'activity_failed', activity, local, input, failure: failureOf(error) });
    throw error;
  }
}

export const interceptors: WorkflowInterceptorsFactory = () => ({
  outbound: [
    {
      scheduleActivity: (input, next) => recordCall(input.activityType, false, input.args, () => next(input)),
      scheduleLocalActivity: (input, next) => recordCall(input.activityType, true, input.args, () => next(input)),
    },
  ],
  inbound: [
    {
      async execute(input, next) {
        replayLab.recorded({ kind: 'start', input: input.args[0] });
        const result = await next(input);
        replayLab.recorded({ kind: 'result', result });
        return result;
      },
      handleSignal(input, next) {
        replayLab.recorded({ kind: 'message', name: input.signalName, payload: input.args[0] });
        return next(input);
      },
      handleUpdate(input, next) {
        replayLab.recorded({ kind: 'message', name: input.name, payload: input.args[0] });
        return next(input);
      },
    },
  ],
});
