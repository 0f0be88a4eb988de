// The replay fixtures are a net only if they catch a change on the path they cover. Issue 20 found the
// first releases' fixtures covered the simple path alone (a timer added before a sub-agent starts
// passed all of them). Here each path gets a deliberate nondeterministic change that lies on it (one
// extra 1 ms timer, see test/support/replay-change-interceptors.ts), and:
// - replaying that path's fixtures with the change fails with a DeterminismViolationError;
// - replaying them with the same interceptor module and no change succeeds (so the failure is the
//   change's, not the harness's);
// - the simple path's fixture still replays with the change (so it is not on every path).
import * as path from 'node:path';
import { DefaultLogger, ReplayError, bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { beforeAll, describe, expect, it } from 'vitest';
import { lifecycleSinks } from '../../src/runtime/lifecycle/lifecycle-sink';
import { WORKFLOWS_PATH } from '../../src/runtime/worker-setup/create-agent-worker';
import { listFixtures, replayedIn, replayFixtures } from '../support/replay-fixtures';

const RELEASE = '10058f7';

/** Each path of the loop, the change that lies on it, and the fixtures of that path. */
const PATHS: { path: string; change: string; fixtures: string[] }[] = [
  { path: 'delegation: starting a sub-agent', change: 'child-start', fixtures: ['delegation', 'cancelled'] },
  { path: 'delegation: a child reporting to its parent', change: 'child-signal', fixtures: ['delegation-child', 'cancelled-child'] },
  { path: 'cancellation', change: 'cancel', fixtures: ['cancelled', 'cancelled-child'] },
  { path: 'the decideApproval update', change: 'update:decideApproval', fixtures: ['updates', 'delegation'] },
  { path: 'the submitReply update', change: 'update:submitReply', fixtures: ['updates'] },
  { path: 'the sendMessage update', change: 'update:sendMessage', fixtures: ['updates'] },
  { path: 'the closeThread update', change: 'update:closeThread', fixtures: ['updates'] },
  { path: 'an answered question (userReply)', change: 'signal:userReply', fixtures: ['answered-question'] },
  { path: 'a rejected call', change: 'signal:approval:reject', fixtures: ['rejected'] },
  { path: 'a fired approval timeout', change: 'timer-fired', fixtures: ['approval-timeout'] },
  { path: 'approve_always saving its preference', change: 'activity:savePreference', fixtures: ['approve-always'] },
  { path: 'the preferences workflow taking a change', change: 'signal:changePreference', fixtures: ['approve-always-preferences', 'preferences'] },
  { path: 'compaction', change: 'activity:summarizeConversation', fixtures: ['compaction'] },
  { path: 'continue-as-new: handing over', change: 'continue-as-new', fixtures: ['continued-as-new', 'continued-while-parked'] },
  { path: 'continue-as-new: resuming from the checkpoint', change: 'resumed', fixtures: ['continued-as-new-last-link', 'continued-while-parked-last-link'] },
  { path: 'handoff', change: 'handoff', fixtures: ['handoff'] },
  { path: 'guardrails (function and model judge)', change: 'activity:checkGuardrails', fixtures: ['guardrails', 'guardrail-tripped'] },
  { path: 'the approval handler (judge)', change: 'activity:judgeApprovals', fixtures: ['guardrails'] },
  { path: 'a thread follow-up (userMessage)', change: 'signal:userMessage', fixtures: ['thread'] },
  { path: 'closing a thread (close)', change: 'signal:close', fixtures: ['thread'] },
];

/**
 * The paths issues 22 and 23 added, whose fixtures exist only in the d6789a0 folder (the `people`
 * capture group). What these kinds cannot single out: a change inside the machine's steering delivery
 * (on-steer.ts) or inside the edit's re-judging, short of the handler or activity that leads there.
 */
const PEOPLE_RELEASE = 'd6789a0';
const PEOPLE_PATHS: typeof PATHS = [
  { path: 'steering a working run by update (sendMessage)', change: 'update:sendMessage', fixtures: ['steered'] },
  { path: 'steering a working run by signal (userMessage)', change: 'signal:userMessage', fixtures: ['steered'] },
  { path: 'the setMode update', change: 'update:setMode', fixtures: ['mode-switch'] },
  { path: 'the decideApprovals update (a batch)', change: 'update:decideApprovals', fixtures: ['batch-approved'] },
  { path: 'an approval with edited arguments', change: 'activity:checkEdits', fixtures: ['edited-approval'] },
  { path: 'a paused turn continued in place', change: 'paused-turn-continued', fixtures: ['paused-turn'] },
  { path: 'a fork starting from an earlier iteration', change: 'from-checkpoint', fixtures: ['forked'] },
];

/**
 * Issue 31 (patch one-writer-message-handlers) changed the loop and every handler: the whole release is
 * captured again with the new code (the paths above, for this release too), and so are the edges the
 * fix is about, whose histories from before the fix are in 27e1fcd/ (replayed by replay.test.ts).
 */
const ONE_WRITER_RELEASE = 'a13cef5';
const ONE_WRITER_PATHS: typeof PATHS = [
  { path: 'a follow-up sent with the start (update-with-start)', change: 'update:sendMessage', fixtures: ['x-at-start'] },
  { path: 'a thread handing over with follow-ups queued', change: 'continue-as-new', fixtures: ['x-handover'] },
  { path: 'the link after it, delivering them', change: 'resumed', fixtures: ['x-handover-last-link'] },
  { path: 'an edited decision overtaken by a plain approval', change: 'activity:checkEdits', fixtures: ['x-overtaken'] },
  { path: 'a cancel while an edit is checked', change: 'cancel', fixtures: ['x-cancelled-edit'] },
  { path: 'a decision forwarded to a sub-agent run that ended', change: 'child-signal', fixtures: ['x-closed-child', 'x-closed-child-child'] },
  { path: 'a failure inside the loop', change: 'activity:summarizeConversation', fixtures: ['x-failed-loop'] },
  { path: 'a parent that cannot be told', change: 'child-signal', fixtures: ['x-orphan'] },
  { path: 'a malformed childStatus', change: 'signal:childStatus', fixtures: ['x-child-status'] },
  { path: 'two follow-ups with one text', change: 'update:sendMessage', fixtures: ['x-same-text'] },
  { path: 'more follow-ups than the inbox takes', change: 'signal:userMessage', fixtures: ['x-full-inbox'] },
];

/** The release's fixtures of the simple path, which the first release's fixtures already covered. */
const SIMPLE_PATH = ['completed', 'approved-completed', 'failed-model-outage', 'parked-approval', 'parked-question'];

const MARKER = 'replay-change=none';

/**
 * How a replay that met a command its history does not have fails. Core reports most mismatches as
 * nondeterminism (DeterminismViolationError); when the extra timer lands where the history has another
 * timer's event (a signal handled while the run waits on an approval's timer), its timer state machine
 * reports the same mismatch as a fatal machine error (a ReplayError). Anything else is not the change.
 */
async function replayFailure(replaying: Promise<void>): Promise<Error> {
  const error = await replaying.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the changed code replayed the history without complaint').toBeInstanceOf(Error);
  const isNondeterminism = error instanceof DeterminismViolationError;
  const isMachineMismatch = error instanceof ReplayError && /Fatal error in workflow machines: \w+Machine .* transition is invalid/.test(error.message);
  expect(isNondeterminism || isMachineMismatch, `not a nondeterminism failure: ${String(error)}`).toBe(true);
  return error as Error;
}

describe('replay fixtures catch a change on each path', () => {
  let unchanged: WorkflowBundle;
  beforeAll(async () => {
    unchanged = await bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      workflowInterceptorModules: [path.join(__dirname, '..', 'support', 'replay-change-interceptors.ts')],
      logger: new DefaultLogger('WARN'),
    });
    // The swap below must hit the module's marker, or every "changed" bundle would be the unchanged one.
    expect(unchanged.code).toContain(MARKER);
  }, 120_000);
  const changed = (change: string): WorkflowBundle => ({ ...unchanged, code: unchanged.code.replaceAll(MARKER, `replay-change=${change}`) });

  it(`covers every ${RELEASE} fixture off the simple path`, () => {
    const captured = listFixtures().filter((f) => f.startsWith(`${RELEASE}/`)).map((f) => path.basename(f, '.json'));
    const netted = new Set([...SIMPLE_PATH, ...PATHS.flatMap((p) => p.fixtures)]);
    expect(captured.filter((name) => !netted.has(name))).toEqual([]);
    expect([...netted].filter((name) => !captured.includes(name))).toEqual([]);
  });

  it(`nets every ${PEOPLE_RELEASE} fixture of the people group`, () => {
    const captured = listFixtures().filter((f) => f.startsWith(`${PEOPLE_RELEASE}/`)).map((f) => path.basename(f, '.json'));
    // forked-original is a plain completed run, kept for reading the fork beside it.
    const people = ['steered', 'mode-switch', 'batch-approved', 'edited-approval', 'paused-turn', 'forked'];
    expect(captured).toEqual(expect.arrayContaining(people));
    expect(people.filter((name) => !PEOPLE_PATHS.some((p) => p.fixtures.includes(name)))).toEqual([]);
  });

  it(`nets every ${ONE_WRITER_RELEASE} fixture`, () => {
    const captured = listFixtures().filter((f) => f.startsWith(`${ONE_WRITER_RELEASE}/`)).map((f) => path.basename(f, '.json'));
    const netted = new Set([...SIMPLE_PATH, ...[...PATHS, ...PEOPLE_PATHS, ...ONE_WRITER_PATHS].flatMap((p) => p.fixtures), 'forked-original']);
    expect(captured.filter((name) => !netted.has(name))).toEqual([]);
    expect(ONE_WRITER_PATHS.flatMap((p) => p.fixtures).filter((name) => !captured.includes(name))).toEqual([]);
  });

  const rows = [
    ...PATHS.map((p) => ({ ...p, release: RELEASE })),
    ...PEOPLE_PATHS.map((p) => ({ ...p, release: PEOPLE_RELEASE })),
    ...[...PATHS, ...PEOPLE_PATHS, ...ONE_WRITER_PATHS].map((p) => ({ ...p, release: ONE_WRITER_RELEASE })),
  ];
  // Each bundle replays its fixtures on one replay worker (replayFixtures), made when the first test
  // that needs it runs: a changed bundle every fixture of every row with its change and each release's
  // completed run, the unchanged one a release's fixtures of all rows. Each test still passes or fails
  // on its own history's replay alone.
  const file = (release: string, name: string) => `${release}/${name}.json`;
  const batches = new Map<string, Promise<Map<string, Error | undefined>>>();
  const batch = (key: string, bundle: () => WorkflowBundle, fixtures: () => string[]) => {
    let made = batches.get(key);
    if (!made) {
      made = replayFixtures({ workflowBundle: bundle(), sinks: lifecycleSinks([]) }, fixtures());
      batches.set(key, made);
    }
    return made;
  };
  const replayChanged = (change: string, fixture: string) =>
    replayedIn(
      batch(`change ${change}`, () => changed(change), () => rows.filter((row) => row.change === change).flatMap((row) => [...row.fixtures.map((name) => file(row.release, name)), file(row.release, 'completed')])),
      fixture,
    );
  const replayUnchanged = (release: string, fixture: string) =>
    replayedIn(
      batch(`unchanged ${release}`, () => unchanged, () => rows.filter((row) => row.release === release).flatMap((row) => row.fixtures.map((name) => file(release, name)))),
      fixture,
    );
  describe.each(rows)('$path ($change)', ({ change, fixtures, release }) => {
    it.each(fixtures)(`the change fails replay of ${release}/%s`, async (name) => {
      await replayFailure(replayChanged(change, file(release, name)));
    });

    it.each(fixtures)(`without the change, ${release}/%s replays`, async (name) => {
      await replayUnchanged(release, file(release, name));
    });

    it(`the change is off the simple path: ${release}'s completed run still replays`, async () => {
      await replayChanged(change, file(release, 'completed'));
    });
  });
});
