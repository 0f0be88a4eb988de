// Workflow-side code (bundled into the workflow isolate): a deliberate nondeterministic change for
// test/workflows/replay-catches-change.test.ts. It adds one 1 ms timer (a StartTimer command the
// recorded history does not have) at a point that only one path of the loop reaches, so replaying a
// fixture of that path must fail while the simple path still replays.
//
// The change is chosen per bundle: the test bundles this module once and then swaps the marker string
// below for the change it wants (`replay-change=<kind>`), which saves a bundling per change.
import { CancellationScope, sleep, workflowInfo, type WorkflowInterceptors } from '@temporalio/workflow';

const CHANGE = 'replay-change=none';
const kind = CHANGE.slice('replay-change='.length);

/**
 * The kinds: `child-start` (before a sub-agent's child run starts), `child-signal` (before a child
 * signals its parent), `cancel` (when the run is cancelled), `timer-fired` (after a timer fires, as
 * an approval timeout's does), `continue-as-new` (before a run hands over to its next link), `resumed`
 * (as a continued link starts), `handoff` (before the second agent is resolved), `activity:<type>`
 * (before that activity is scheduled), `update:<name>` (before that update's handler runs),
 * `signal:<name>` or `signal:<name>:<decision>` (before that signal's handler runs, for that decision),
 * `from-checkpoint` (as a run started from another run's checkpoint starts: a fork or a resume, not a
 * continued link), `paused-turn-continued` (before the model call that continues a paused turn: the
 * only call whose conversation appends no user message, since the paused turn is already stored).
 */
export function interceptors(): WorkflowInterceptors {
  if (kind === 'none') return {};
  // Once per workflow: the pause's own timer must not pause again (timer-fired would recurse).
  let paused = false;
  const pause = async () => {
    if (paused) return;
    paused = true;
    await sleep(1);
  };
  let resolved = 0;
  const signalMatches = (name: string, args: unknown[]) => {
    const [, wantedName, wantedDecision] = kind.split(':');
    if (wantedName !== name) return false;
    return wantedDecision === undefined || (args[0] as { decision?: string } | undefined)?.decision === wantedDecision;
  };
  return {
    inbound: [
      {
        async execute(input, next) {
          // The root scope's cancelRequested rejects when the workflow is cancelled.
          if (kind === 'cancel') CancellationScope.current().cancelRequested.catch(() => CancellationScope.nonCancellable(pause));
          if (kind === 'resumed' && workflowInfo().continuedFromExecutionRunId) await pause();
          if (kind === 'from-checkpoint' && startsFromCheckpoint(input.args[0])) await pause();
          return next(input);
        },
        async handleSignal(input, next) {
          if (kind.startsWith('signal:') && signalMatches(input.signalName, input.args)) await pause();
          return next(input);
        },
        async handleUpdate(input, next) {
          if (kind === `update:${input.name}`) await pause();
          return next(input);
        },
      },
    ],
    outbound: [
      {
        async scheduleActivity(input, next) {
          if (kind === `activity:${input.activityType}`) await pause();
          if (kind === 'paused-turn-continued' && input.activityType === 'callModel' && continuesPausedTurn(input.args[0])) await pause();
          if (kind === 'handoff' && input.activityType === 'resolveAgent' && ++resolved === 2) await pause();
          return next(input);
        },
        async startChildWorkflowExecution(input, next) {
          if (kind === 'child-start') await pause();
          return next(input);
        },
        async signalWorkflow(input, next) {
          if (kind === 'child-signal') await pause();
          return next(input);
        },
        async continueAsNew(input, next) {
          if (kind === 'continue-as-new') await pause();
          return next(input);
        },
        async startTimer(input, next) {
          await next(input);
          if (kind === 'timer-fired') await pause();
        },
      },
    ],
  };
}

/** A fork or a resume: its input carries the origin's checkpoint and names it, and it is not a continued link. */
function startsFromCheckpoint(input: unknown): boolean {
  const run = input as { checkpoint?: unknown; resumedFrom?: string } | undefined;
  return run?.checkpoint !== undefined && run.resumedFrom !== undefined && !workflowInfo().continuedFromExecutionRunId;
}

/** Every other model call appends a user message (the task, tool results, a nudge or steering) last. */
function continuesPausedTurn(input: unknown): boolean {
  const append = (input as { conversation?: { append?: { role: string }[] } } | undefined)?.conversation?.append;
  return append !== undefined && append.at(-1)?.role !== 'user';
}
