import type { WorkflowHandle } from '@temporalio/client';
import { closeThreadUpdate, sendMessageUpdate } from '../../contract/agent-run-api';
import type { FollowUp } from '../../contract/approval-decision';
import type { RunStatus } from '../../contract/run-status';
import type { RecordedRun } from './recorded-run';
import type { ShadowSession } from './shadow-session';

/** The messages people sent the recorded run (`userMessage` signals, `sendMessage` updates), in order, signatures dropped. */
export function recordedPeopleMessages(recorded: RecordedRun): FollowUp[] {
  return recorded.messages
    .filter((m) => m.name === 'userMessage' || m.name === 'sendMessage')
    .map((m) => {
      const { signature: _s, expiresAt: _e, ...message } = m.payload as FollowUp;
      return message;
    });
}

const textIn = (content: unknown): string => JSON.stringify(content);

/**
 * When to hand a working run's messages to its shadow: each one before the model request that first
 * carried it in the recorded run (by index). The shadow sends it while the call before that request
 * runs, so the run queues it and gives it to that same request, as it did when it was recorded. A
 * message the recorded run never delivered (it ended first) is left out.
 */
export function steeringPlan(recorded: RecordedRun): { before: Map<number, FollowUp[]>; undelivered: number } {
  const before = new Map<number, FollowUp[]>();
  let undelivered = 0;
  if (recorded.input.followUps) return { before, undelivered };
  for (const message of recordedPeopleMessages(recorded)) {
    const call = recorded.modelCalls.find((c) => (c.messages ?? []).some((m) => m.role === 'user' && textIn(m.content).includes(JSON.stringify(message.text).slice(1, -1))));
    if (!call) undelivered += 1;
    else before.set(call.index, [...(before.get(call.index) ?? []), message]);
  }
  return { before, undelivered };
}

/**
 * A thread shadow that went idle after its completion number `n`: it gets the recorded run's
 * follow-up number `n` (each follow-up started a turn), and is closed when there is none left, or
 * stopped where a parked recorded thread still waits for one.
 */
export async function continueIdleThread(handle: WorkflowHandle, session: ShadowSession, status: Pick<RunStatus, 'phase' | 'completions' | 'followUps'>, sent: Set<number>): Promise<void> {
  if (status.phase !== 'idle' || !status.followUps) return;
  const turn = status.completions.length - 1;
  if (sent.has(turn)) return;
  sent.add(turn);
  const next = recordedPeopleMessages(session.recorded)[turn];
  if (next) {
    await handle.executeUpdate(sendMessageUpdate, { args: [next] });
    return;
  }
  if (session.recorded.ending === 'parked') {
    session.atRecordEnd = true;
    session.stop('the shadow thread is idle where the recorded thread waits for its next follow-up');
    return;
  }
  await handle.executeUpdate(closeThreadUpdate);
}
