// Issue 23, items 1 and 2: a person approves a parked call with edited arguments, and decides a turn's
// calls in one update (`decideApprovals`), all or none. Real server, the scripted fake Messages API.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { approvalSignal, decideApprovalsUpdate, decideApprovalUpdate, statusQuery } from '../../src/contract/agent-run-api';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { waitFor, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { complete, parked, resultsIn, shell, tallies, tallyAgent, tallyTool, write } from './approval-test-kit';

/** The reason an update was refused with. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  return (error as WorkflowUpdateFailedError).cause?.message ?? '';
}

describe('approving with edited arguments', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, tallyAgent], tools: [tallyTool] });
  const fake = bed.fake;

  it('runs the edited shell command and not the original; the result says who changed what; the audit log keeps both', async () => {
    const task = uniqueId('edit-shell');
    fake.script(task, [reply(shell('touch original.txt')), complete()]);
    const auditLog = path.join(await mkdtemp(path.join(tmpdir(), 'edit-audit-')), 'audit.log');
    await withAgentWorker({ ...bed.harness(), auditLog }, async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task });
      await parked(handle);
      const outcome = await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'approve', approver: 'ann', arguments: { command: 'touch edited.txt' } }] });
      expect(outcome).toEqual({ applied: true, message: 'approve applied to toolu_0_0 with the edited arguments' });
      expect((await handle.result()).status).toBe('completed');
      expect(existsSync(path.join(workspace, 'edited.txt'))).toBe(true);
      expect(existsSync(path.join(workspace, 'original.txt'))).toBe(false);
    });
    const [result] = resultsIn(fake.requestsFor(task)[1]);
    const first = String(result?.content).split('\n')[0];
    expect(first).toBe('[ann edited this call before approving it (command: "touch original.txt" → "touch edited.txt"); the output below is of the edited call]');
    const lines = (await readFile(auditLog, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ kind: 'decision', decision: 'approve', approver: 'ann', arguments: { command: 'touch original.txt' }, editedArguments: { command: 'touch edited.txt' } }));
  });

  it('does not run an edit that a reject rule covers', async () => {
    const task = uniqueId('edit-rejected');
    fake.script(task, [reply(shell('touch fine.txt')), complete()]);
    const toolApproval = { alwaysRejected: [{ tool: 'shell', argument: 'command', argumentsMatch: 'forbidden' }] };
    await withAgentWorker(bed.harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task, toolApproval });
      await parked(handle);
      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve', approver: 'ann', arguments: { command: 'touch forbidden.txt' } });
      expect((await handle.result()).status).toBe('completed');
      expect(existsSync(path.join(workspace, 'forbidden.txt'))).toBe(false);
      expect(existsSync(path.join(workspace, 'fine.txt'))).toBe(false);
      const status = await handle.query(statusQuery);
      expect(status.decisions).toContainEqual(expect.objectContaining({ callId: 'toolu_0_0', decision: 'policy_reject' }));
    });
    const [result] = resultsIn(fake.requestsFor(task)[1]);
    expect(result).toMatchObject({ is_error: true });
    expect(result?.content).toContain('ann changed it, and the edited call is refused: "touch forbidden.txt": rejected by rule "shell /forbidden/"');
  });

  it('refuses an edit that fails the tool schema: the update says why, a signal is recorded, the call stays parked', async () => {
    const task = uniqueId('edit-schema');
    fake.script(task, [reply(write('a.txt')), complete()]);
    await withAgentWorker(bed.harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task });
      await parked(handle);
      const why = await refusal(handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'approve', arguments: { path: 42 } }] }));
      expect(why).toMatch(/^the edit of toolu_0_0 is refused: the edited arguments do not fit write_file's input schema: .*path/);
      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve', arguments: { content: 'no path' } });
      const status = await waitFor(async () => {
        const s = await handle.query(statusQuery);
        return s.ignored.length > 0 ? s : undefined;
      }, 'the bad edit to be recorded');
      expect(status.phase).toBe('waiting_approval');
      expect(status.ignored.at(-1)?.reason).toMatch(/the edit of toolu_0_0 is refused/);
      expect(status.pendingApprovals[0]?.input).toEqual({ path: 'a.txt', content: 'hello' });
      expect(await refusal(handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'reject', arguments: { path: 'b.txt', content: 'x' } }] }))).toMatch(/"arguments" only go with approve/);
      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve', arguments: { path: 'b.txt', content: 'edited' } });
      expect((await handle.result()).status).toBe('completed');
      expect(await readFile(path.join(workspace, 'b.txt'), 'utf8')).toBe('edited');
      expect(existsSync(path.join(workspace, 'a.txt'))).toBe(false);
    });
  });
});

describe('decideApprovals', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, tallyAgent], tools: [tallyTool] });
  const fake = bed.fake;
  const tally = (key: string) => toolCall('tally', { key });

  it('changes nothing when one decision of three is invalid, and says which and why', async () => {
    const task = uniqueId('batch-invalid');
    const keys = [uniqueId('k1'), uniqueId('k2'), uniqueId('k3')];
    fake.script(task, [reply(...keys.map(tally)), complete()]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'tallier', task });
      await parked(handle, 3);
      const ok = (callId: string) => ({ callId, decision: 'approve' as const });
      const unknown = await refusal(handle.executeUpdate(decideApprovalsUpdate, { args: [{ decisions: [ok('toolu_0_0'), ok('toolu_0_9'), ok('toolu_0_2')] }] }));
      expect(unknown).toBe('decision 2 of 3 (approve toolu_0_9) is refused: no pending approval with callId toolu_0_9; decision ignored; nothing was applied');
      const badEdit = await refusal(handle.executeUpdate(decideApprovalsUpdate, { args: [{ decisions: [ok('toolu_0_0'), { ...ok('toolu_0_1'), arguments: { key: 7 } }, ok('toolu_0_2')] }] }));
      expect(badEdit).toMatch(/^the edit of toolu_0_1 is refused: .*key.*; nothing was applied$/);
      const status = await handle.query(statusQuery);
      expect(status.pendingApprovals.map((p) => p.callId)).toEqual(['toolu_0_0', 'toolu_0_1', 'toolu_0_2']);
      expect(status.decisions).toEqual([]);
      expect(keys.map((k) => tallies.get(k))).toEqual([undefined, undefined, undefined]);

      // Two decided at once (one of them edited); the third stays parked until decided.
      const outcome = await handle.executeUpdate(decideApprovalsUpdate, { args: [{ decisions: [ok('toolu_0_0'), { callId: 'toolu_0_1', decision: 'reject', reason: 'not this one' }] }] });
      expect(outcome).toEqual({ applied: true, message: '2 decision(s) applied (toolu_0_0, toolu_0_1); 2 call(s) settled, 1 still parked' });
      expect((await parked(handle)).pendingApprovals.map((p) => p.callId)).toEqual(['toolu_0_2']);
      const again = await refusal(handle.executeUpdate(decideApprovalsUpdate, { args: [{ decisions: [ok('toolu_0_0'), ok('toolu_0_2')] }] }));
      expect(again).toMatch(/^decision 1 of 2 \(approve toolu_0_0\) is refused: call toolu_0_0 was already decided/);
      await handle.executeUpdate(decideApprovalsUpdate, { args: [{ decisions: [{ ...ok('toolu_0_2'), arguments: { key: `${keys[2]}-edited` } }] }] });
      expect((await handle.result()).status).toBe('completed');
      expect([tallies.get(keys[0]!), tallies.get(keys[1]!), tallies.get(keys[2]!), tallies.get(`${keys[2]}-edited`)]).toEqual([1, undefined, undefined, 1]);
    });
  });
});
