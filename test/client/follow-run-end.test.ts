// How a follower learns that a run has ended, against a real dev server and a worker's live relay:
// while the relay feeds it, the follower holds no long poll of its own for the run's end (a hundred
// watchers held a hundred, and the server works for every waiting poll at each of the run's steps,
// issue 37); the relay's one poll ends every feed with `closed`, and each follower then reads how the
// run ended: completed, or terminated by someone else, where the run itself says nothing.
import { WorkflowClient, type Client, type WorkflowHandle } from '@temporalio/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { followRun, type FollowResult } from '../../src/client/follow-run';
import { approvalSignal } from '../../src/contract/agent-run-api';
import { waitFor, waitForApprovals, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { parkingTask } from '../support/parking-task';
import { newClient } from '../support/temporal';

const bed = useAgentTestbed();
const fake = bed.fake;

afterEach(() => vi.restoreAllMocks());

/** Counts the long polls for a run's end (`handle.result()`) that `client` makes. */
function resultPolls(client: Client): () => number {
  let polls = 0;
  const proto = WorkflowClient.prototype as unknown as { result(...args: unknown[]): Promise<unknown> };
  const original = proto.result;
  vi.spyOn(proto, 'result').mockImplementation(function (this: WorkflowClient, ...args: unknown[]) {
    if (this === client.workflow) polls += 1;
    return original.apply(this, args);
  });
  return () => polls;
}

interface Follower {
  lines: string[];
  parked: () => boolean;
  result: Promise<FollowResult>;
}

/** Follows the run as `agentctl watch` does (the relay on), leaving approvals to the test. */
function follower(client: Client, workflowId: string): Follower {
  const handle: WorkflowHandle = client.workflow.getHandle(workflowId);
  const lines: string[] = [];
  let parked = false;
  const result = followRun(client, handle, {
    out: (line) => lines.push(line),
    onText: () => undefined,
    onApprovals: async () => void (parked = true),
    onQuestion: async () => undefined,
  });
  return { lines, parked: () => parked, result };
}

describe("following a run to its end through the relay", () => {
  let watchers: Client | undefined;
  afterEach(async () => {
    await watchers?.connection.close();
    watchers = undefined;
  });

  it('holds no long poll for the end while the relay feeds it, and reads the outcome once the run completes', async () => {
    const task = parkingTask(fake, 'end-completed');
    watchers = await newClient();
    const polls = resultPolls(watchers);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const run = await start({ agent: 'general', task });
      const parked = await waitForApprovals(run);
      const followers = Array.from({ length: 3 }, () => follower(watchers!, run.workflowId));
      await waitFor(async () => (followers.every((f) => f.parked()) ? true : undefined), 'every follower to see the run wait for approval', 30_000);
      // Parked for a while: the followers hold the relay's feed and nothing else.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(polls()).toBe(0);

      await run.signal(approvalSignal, { callId: parked.pendingApprovals[0]!.callId, decision: 'approve', approver: 'test' });
      const results = await Promise.all(followers.map((f) => f.result));
      expect(results.map((r) => r.kind)).toEqual(['completed', 'completed', 'completed']);
      // Each read its outcome once the relay said the run had ended: one short poll each.
      expect(polls()).toBe(3);
      for (const f of followers) expect(f.lines.filter((line) => line.includes('dropped'))).toEqual([]);
    });
  });

  it('learns from the relay that a run was terminated (the run itself says nothing), and ends with its reason', async () => {
    const task = parkingTask(fake, 'end-terminated');
    watchers = await newClient();
    const polls = resultPolls(watchers);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const run = await start({ agent: 'general', task });
      await waitForApprovals(run);
      const followers = Array.from({ length: 2 }, () => follower(watchers!, run.workflowId));
      await waitFor(async () => (followers.every((f) => f.parked()) ? true : undefined), 'every follower to see the run wait for approval', 30_000);
      expect(polls()).toBe(0);

      await run.terminate('an operator stopped it');
      const results = await Promise.race([
        Promise.all(followers.map((f) => f.result)),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the followers did not learn of the termination within 20 s')), 20_000)),
      ]);
      expect(results).toEqual([
        { kind: 'terminated', workflowId: run.workflowId, reason: 'an operator stopped it' },
        { kind: 'terminated', workflowId: run.workflowId, reason: 'an operator stopped it' },
      ]);
      // The relay's end is no drop: nothing says the feed broke off.
      for (const f of followers) expect(f.lines.filter((line) => line.includes('dropped'))).toEqual([]);
    });
  });
});
