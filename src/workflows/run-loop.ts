import { allHandlersFinished, condition, makeContinueAsNewFunc } from '@temporalio/workflow';
import type { AgentRunInput, ParsedRunInput } from '../contract/run-input';
import type { AgentRunResult } from '../contract/run-result';
import type { RunState } from '../core/machine/run-state';
import { applyLetter, refuseLetter } from './apply-letter';
import type { Features } from './compat/patches';
import type { LetterContext } from './letter-context';
import type { Letter } from './mailbox';
import { nextLinkInput, release } from './run-lifecycle';
import type { StepContext } from './take-step';
import { takeStep, whileWorking } from './take-step';

/** Everything the loop of one link holds: the run, its mailbox, and how this execution behaves. */
export interface Loop extends StepContext, LetterContext {
  input: ParsedRunInput;
  runFeatures: Features;
}

/** What an update on a message still in the inbox is told when the run ends before the agent took it up. */
function undelivered(state: RunState): string {
  const ended = state.outcome?.kind ?? state.phase;
  return `message queued, but the run ended (${ended}) before the agent took it up; it is kept with the run's state, and \`agentctl resume ${state.workflowId}\` delivers it`;
}

/**
 * Applies everything waiting in the mailbox, in arrival order: messages (each answered once applied,
 * with its audit line on disk first), and the outcomes of the run's own background calls. This, and
 * the step the loop takes, are the only places the run's state changes. Returns nothing when it is
 * done at once (no handler running, no message to apply, no audit line to wait for): the loop then
 * goes on without an await, whose promises each cost the SDK a captured stack trace (issue 37). A
 * message, a flush or a running handler takes the awaited path, as does every pass of an execution
 * before patch `quick-loop`.
 */
export function settle(loop: Loop): Promise<void> | undefined {
  // While a handler runs (an update waits for its answer, or is being answered), the order of its
  // completion and the loop's next command rests on these awaits: the fuzzer's seed 1 met a history
  // that did not replay when the loop went on without them.
  if (!loop.runFeatures.quickLoop || !allHandlersFinished()) return settleAwaited(loop);
  const { driver, mailbox } = loop;
  for (let next = mailbox.take(); next; next = mailbox.take()) {
    // Rejected, not thrown: the loop meets it after one await, as on the awaited path.
    if (next.kind === 'fault') return Promise.reject(next.error as Error);
    if (next.kind === 'letter') return settleAwaited(loop, next.letter);
    driver.dispatch(next.event);
  }
  loop.deliveries.check(driver.state);
  driver.publish();
  return driver.auditIdle() ? undefined : driver.flushAudit();
}

/** `settle` with every await (executions before patch `quick-loop`), or its rest from the first message on. */
async function settleAwaited(loop: Loop, first?: Letter): Promise<void> {
  const { driver, mailbox } = loop;
  if (first) await applyLetter(first, loop);
  for (let next = mailbox.take(); next; next = mailbox.take()) {
    if (next.kind === 'fault') throw next.error;
    if (next.kind === 'result') driver.dispatch(next.event);
    else await applyLetter(next.letter, loop);
  }
  loop.deliveries.check(driver.state);
  driver.publish();
  await driver.flushAudit();
}

/**
 * The loop of a one-writer execution: apply what arrived, ask the machine for the next step, write
 * the decisions it made to the audit log, take the step. When the machine says the link or the run
 * ends, the loop waits for every handler first and reads the state after that wait; anything that
 * arrived meanwhile is applied and the machine asked again, since it may change the step. Returns the
 * state of the run that ended (its result is read from it), or continues as new.
 */
export async function runLoop(loop: Loop): Promise<RunState> {
  let released = false;
  for (;;) {
    // A pass that applied a message, or waited for an audit line, keeps every await it always had.
    const settling = settle(loop);
    if (settling) await settling;
    const step = loop.driver.nextStep(loop.features);
    if (step.kind === 'finish' && !released) {
      // The conversation is released while messages are still taken (and refused: the run has ended).
      released = true;
      loop.timer.disarm();
      await whileWorking(loop, release(loop.driver.state, loop.runFeatures));
      continue;
    }
    if (step.kind === 'finish' || step.kind === 'continue_as_new') {
      loop.timer.disarm();
      const state = await quiesce(loop, step.kind);
      if (!state) continue;
      // Nothing is awaited from here on: no message can come between the last read and the end.
      if (step.kind === 'continue_as_new') {
        loop.mailbox.close('The run is handing over to its next link; send the message again');
        // A PINNED run (Worker Versioning) starts its next link on the deployment's current build; an
        // unversioned one is not affected (docs/guides/upgrading.md).
        return makeContinueAsNewFunc<(input: AgentRunInput) => Promise<AgentRunResult>>({ initialVersioningBehavior: 'AUTO_UPGRADE' })(nextLinkInput(loop.input, state));
      }
      loop.mailbox.close('The run has ended');
      return state;
    }
    if (step.kind !== 'wait') loop.timer.disarm();
    // What the step's own transition decided is on disk before the step acts on it.
    // A delivery answered by this settle starts a handler's completion: the awaited path again.
    const quick = !settling && allHandlersFinished();
    if (!quick || !loop.driver.auditIdle()) await loop.driver.flushAudit();
    await takeStep(step, loop);
  }
}

/**
 * Before the link or the run ends: every `sendMessage` still waiting for its turn is answered (its
 * message stays in the state: the next link takes it up, or `agentctl resume` does), and every handler
 * is let finish. The state is read after that wait; undefined when a message arrived meanwhile.
 */
async function quiesce(loop: Loop, ending: 'finish' | 'continue_as_new'): Promise<RunState | undefined> {
  const { driver, mailbox } = loop;
  loop.deliveries.answerAll(ending === 'continue_as_new' ? 'message queued; the agent takes it up after the current turn' : undelivered(driver.state));
  await condition(() => mailbox.size > 0 || allHandlersFinished());
  return mailbox.size > 0 ? undefined : driver.state;
}

/**
 * A run that fails or is cancelled: what waits in the mailbox is refused with the reason (a signal's
 * refusal recorded in `ignored`), nothing more is taken, waiting updates are answered, the conversation
 * is released, and the run ends only once every handler has finished.
 */
export async function endRun(loop: Loop, reason: string): Promise<void> {
  loop.timer.disarm();
  // A letter that comes while the conversation is released is refused at once, and recorded as well.
  const refuse = (letter: Letter) => refuseLetter(letter, loop, reason);
  for (const letter of loop.mailbox.close(reason, refuse)) refuse(letter);
  loop.deliveries.answerAll(undelivered(loop.driver.state));
  // A decision applied in the task that cancelled the run had its audit write cancelled with it: wait
  // for the flush in flight, then write what it put back (the fuzzer's seed 42). Behind a patch: the
  // write is a local activity that earlier histories do not have.
  if (loop.runFeatures.endFlushesAudit) {
    await loop.driver.flushAudit().catch(() => undefined);
    // A letter applied in that task is answered "applied" once its line is on disk (the fuzzer's seed 84).
    try {
      await loop.driver.flushAudit();
    } catch (error) {
      loop.mailbox.answerHeld(`; the run was cancelled as it was applied, and its audit line could not be written: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
    loop.mailbox.answerHeld('; the run was cancelled as it was applied, and its audit line was written as the run ended');
  }
  loop.mailbox.answerHeld('; the run was cancelled as it was applied');
  await release(loop.driver.state, loop.runFeatures);
  await condition(allHandlersFinished);
}
