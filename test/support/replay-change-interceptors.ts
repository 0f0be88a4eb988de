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
 * `signal:<name>` or `signal:<name>:<decision>` (before that signal's handler runs, for that decision).
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
