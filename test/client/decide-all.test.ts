// Issue 32, must-have 7: `agentctl approve --all` de-duplicates the parked calls by (run, call id), so
// two sub-agents that park the same call id each get their decision in the one batch.
import type { WorkflowHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { approveAllParked } from '../../src/client/decide-all';
import type { ApprovalBatch } from '../../src/contract/approval-batch';
import { ApprovalBatchSchema } from '../../src/contract/approval-batch';
import type { PendingApproval, RunStatus } from '../../src/contract/run-status';

const parked = (workflowId: string, callId: string, path: string): PendingApproval =>
  ({ workflowId, callId, tool: 'write_file', input: { path, content: 'x' }, requestedAt: '2026-11-28T12:00:00.000Z', iteration: 1, reason: 'writes' }) as PendingApproval;

/** A handle that answers the status query with `pending` and keeps the batch it is sent. */
function fakeHandle(pending: PendingApproval[]): { handle: WorkflowHandle; sent: ApprovalBatch[] } {
  const sent: ApprovalBatch[] = [];
  const handle = {
    workflowId: 'root',
    client: { withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn() },
    query: async () => ({ pendingApprovals: pending }) as unknown as RunStatus,
    executeUpdate: async (_update: unknown, options: { args: [ApprovalBatch] }) => {
      sent.push(options.args[0]);
      return { applied: true, message: 'ok' };
    },
  };
  return { handle: handle as unknown as WorkflowHandle, sent };
}

describe('approveAllParked', () => {
  it('decides a call id parked by two sub-agent runs once for each run', async () => {
    const { handle, sent } = fakeHandle([parked('root', 'toolu_own', 'r.txt'), parked('root/sub-a', 'toolu_same', 'a.txt'), parked('root/sub-b', 'toolu_same', 'b.txt')]);
    const { callIds } = await approveAllParked(handle, { approver: 'ana' });
    expect(callIds).toEqual(['toolu_own', 'toolu_same', 'toolu_same']);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.decisions.map((d) => [d.workflowId, d.callId])).toEqual([['root', 'toolu_own'], ['root/sub-a', 'toolu_same'], ['root/sub-b', 'toolu_same']]);
    // The run takes such a batch: each (run, call) once.
    expect(ApprovalBatchSchema.safeParse(sent[0]).success).toBe(true);
  });

  it('still lists one (run, call) once when the status repeats it', async () => {
    const { handle, sent } = fakeHandle([parked('root/sub-a', 'toolu_same', 'a.txt'), parked('root/sub-a', 'toolu_same', 'a.txt')]);
    await approveAllParked(handle, { approver: 'ana' });
    expect(sent[0]!.decisions.map((d) => [d.workflowId, d.callId])).toEqual([['root/sub-a', 'toolu_same']]);
  });
});
