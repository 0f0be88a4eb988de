// Human in the loop against a real Temporal server: parking, the approval signal and update, always
// and never (approval-choices.test.ts), timeouts and questions (approval-waits.test.ts). The model is the
// scripted fake; everything else is real.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { useAgentTestbed } from '../support/agent-testbed';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';

import { approvalSignal, decideApprovalUpdate, statusQuery } from '../../src/contract/agent-run-api';

import { waitFor, withAgentWorker } from '../support/agent-run-harness';
import { reply, text, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { complete, parked, resultsIn, shell, tallies, tallyAgent, tallyTool, write } from './approval-test-kit';

describe('approvals', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, tallyAgent], tools: [tallyTool] });
  const fake = bed.fake;
  const harness = bed.harness;

  it('waits 7 days for a decision when the run sets no approval timeout', async () => {
    const task = uniqueId('default-timeout');
    fake.script(task, [reply(write('late.md', 'x')), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      try {
        await parked(handle);
        const history = await handle.fetchHistory();
        const timers = (history.events ?? []).flatMap((e) => (e.timerStartedEventAttributes?.startToFireTimeout ? [Number(e.timerStartedEventAttributes.startToFireTimeout.seconds)] : []));
        const sevenDays = 7 * 24 * 60 * 60;
        // The wait for the decision is one timer, due 7 days after the call was parked.
        expect(timers.some((seconds) => seconds > sevenDays - 60 && seconds <= sevenDays)).toBe(true);
      } finally {
        await handle.terminate('test cleanup').catch(() => undefined);
      }
    });
  });

  it('parks a write_file call with its details, and runs it once approved by signal', async () => {
    const task = uniqueId('approve');
    fake.script(task, [reply(text('I will write the notes.'), write('notes.md', 'approved content')), complete()]);
    await withAgentWorker(harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task });
      const status = await parked(handle);
      expect(status.pendingApprovals).toEqual([
        {
          callId: 'toolu_0_0',
          tool: 'write_file',
          input: { path: 'notes.md', content: 'approved content' },
          requestedAt: expect.any(String),
          iteration: 1,
          reason: 'write tools: approve',
          context: 'I will write the notes.',
          workflowId: handle.workflowId,
        },
      ]);
      expect(existsSync(path.join(workspace, 'notes.md'))).toBe(false);

      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve', approver: 'ann' });
      expect((await handle.result()).status).toBe('completed');
      expect(await readFile(path.join(workspace, 'notes.md'), 'utf8')).toBe('approved content');
      const after = await handle.query(statusQuery);
      expect(after.pendingApprovals).toEqual([]);
      expect(after.decisions).toContainEqual(expect.objectContaining({ callId: 'toolu_0_0', decision: 'approve', approver: 'ann', via: 'signal' }));
    });
    const [result] = resultsIn(fake.requestsFor(task)[1]);
    expect(result).toMatchObject({ tool_use_id: 'toolu_0_0' });
    expect(result?.is_error).toBeUndefined();
  });

  it('turns a rejection into an is_error result the model handles, and the run completes', async () => {
    const task = uniqueId('reject');
    fake.script(task, [reply(shell('touch should-not-exist')), reply(text('Understood, I will not.'), toolCall('complete_task', { summary: 'gave up on touching', status: 'partial' }))]);
    await withAgentWorker(harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task });
      await parked(handle);
      const outcome = await handle.executeUpdate(decideApprovalUpdate, {
        args: [{ callId: 'toolu_0_0', decision: 'reject', reason: 'not in this repo' }],
      });
      expect(outcome).toEqual({ applied: true, message: 'reject applied to toolu_0_0' });
      const result = await handle.result();
      expect(result.status).toBe('completed');
      expect(result.completion?.status).toBe('partial');
      expect(existsSync(path.join(workspace, 'should-not-exist'))).toBe(false);
    });
    const [denial] = resultsIn(fake.requestsFor(task)[1]);
    expect(denial).toMatchObject({ tool_use_id: 'toolu_0_0', is_error: true });
    expect(denial?.content).toContain('The call to shell was not run: rejected: not in this repo');
  });

  it('rejects a shell call matching an argument pattern while another shell call in the same turn still asks', async () => {
    const task = uniqueId('pattern');
    fake.script(task, [reply(shell('rm -rf / --no-preserve-root'), shell('echo still-asks')), complete()]);
    const toolApproval = { alwaysRejected: [{ tool: 'shell', argument: 'command', argumentsMatch: 'rm -rf /' }] };
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task, toolApproval });
      const status = await parked(handle);
      expect(status.pendingApprovals.map((p) => p.callId)).toEqual(['toolu_0_1']);
      expect(status.decisions).toEqual([expect.objectContaining({ callId: 'toolu_0_0', decision: 'policy_reject', reason: expect.stringContaining('rejected by rule "shell /rm -rf //"') })]);
      await handle.signal(approvalSignal, { callId: 'toolu_0_1', decision: 'approve' });
      expect((await handle.result()).status).toBe('completed');
    });
    const [refused, ran] = resultsIn(fake.requestsFor(task)[1]);
    expect(refused).toMatchObject({ tool_use_id: 'toolu_0_0', is_error: true });
    expect(refused?.content).toContain('rejected by rule');
    expect(ran?.is_error).toBeUndefined();
    expect(ran?.content).toContain('still-asks');
  });

  it('parks again for an approval-requiring call in a later turn (cascading)', async () => {
    const task = uniqueId('cascade');
    fake.script(task, [reply(write('first.txt')), reply(shell('echo second')), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      expect((await parked(handle)).pendingApprovals.map((p) => p.callId)).toEqual(['toolu_0_0']);
      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve' });
      const second = await waitFor(async () => {
        const s = await parked(handle);
        return s.pendingApprovals[0]?.callId === 'toolu_1_0' ? s : undefined;
      }, 'the second park');
      expect(second.pendingApprovals).toEqual([expect.objectContaining({ tool: 'shell', iteration: 2 })]);
      await handle.signal(approvalSignal, { callId: 'toolu_1_0', decision: 'approve' });
      expect((await handle.result()).status).toBe('completed');
      expect((await handle.query(statusQuery)).decisions.map((d) => d.callId)).toEqual(['toolu_0_0', 'toolu_1_0']);
    });
  });

  it('gives two calls of one turn their own pending entries, decided separately, results in call order', async () => {
    const task = uniqueId('two');
    fake.script(task, [reply(write('one.txt'), write('two.txt')), complete()]);
    await withAgentWorker(harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task });
      const status = await parked(handle, 2);
      expect(status.pendingApprovals.map((p) => [p.callId, (p.input as { path: string }).path])).toEqual([
        ['toolu_0_0', 'one.txt'],
        ['toolu_0_1', 'two.txt'],
      ]);
      // Deciding one leaves the other parked.
      await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_1', decision: 'reject' }] });
      const still = await handle.query(statusQuery);
      expect(still.phase).toBe('waiting_approval');
      expect(still.pendingApprovals.map((p) => p.callId)).toEqual(['toolu_0_0']);
      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve' });
      expect((await handle.result()).status).toBe('completed');
      expect(existsSync(path.join(workspace, 'one.txt'))).toBe(true);
      expect(existsSync(path.join(workspace, 'two.txt'))).toBe(false);
    });
    const results = resultsIn(fake.requestsFor(task)[1]);
    expect(results.map((r) => [r.tool_use_id, r.is_error ?? false])).toEqual([
      ['toolu_0_0', false],
      ['toolu_0_1', true],
    ]);
  });

  it('ignores and records a duplicate approval signal; the tool runs once', async () => {
    const task = uniqueId('duplicate');
    const key = uniqueId('k');
    fake.script(task, [reply(toolCall('tally', { key })), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'tallier', task });
      await parked(handle);
      const decision = { callId: 'toolu_0_0', decision: 'approve' as const };
      await handle.signal(approvalSignal, decision);
      await handle.signal(approvalSignal, decision);
      expect((await handle.result()).status).toBe('completed');
      const status = await handle.query(statusQuery);
      expect(status.decisions.filter((d) => d.callId === 'toolu_0_0')).toHaveLength(1);
      expect(status.ignored).toEqual([
        expect.objectContaining({ kind: 'approval', reason: 'call toolu_0_0 was already decided; decision ignored', payload: JSON.stringify(decision) }),
      ]);
    });
    expect(tallies.get(key)).toBe(1);
  });

  it('ignores a signal for an unknown callId, and rejects the update for it and for a decided call', async () => {
    const task = uniqueId('unknown');
    fake.script(task, [reply(write('x.txt')), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      await parked(handle);
      await handle.signal(approvalSignal, { callId: 'toolu_nope', decision: 'approve' });
      const ignored = await waitFor(async () => {
        const s = await handle.query(statusQuery);
        return s.ignored.length > 0 ? s : undefined;
      }, 'the ignored signal');
      expect(ignored.ignored[0]).toMatchObject({ kind: 'approval', reason: 'no pending approval with callId toolu_nope; decision ignored' });
      expect(ignored.pendingApprovals.map((p) => p.callId)).toEqual(['toolu_0_0']);

      const refused = await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_nope', decision: 'approve' }] }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((refused as WorkflowUpdateFailedError).cause?.message).toBe('no pending approval with callId toolu_nope; decision ignored');

      await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'approve' }] });
      const late = await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'reject' }] }).catch((e: unknown) => e);
      expect((late as WorkflowUpdateFailedError).cause?.message).toBe('call toolu_0_0 was already decided; decision ignored');
      expect((await handle.result()).status).toBe('completed');
      // A refused update is not written to history; only the accepted one is.
      const events = (await handle.fetchHistory()).events ?? [];
      expect(events.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes)).toHaveLength(1);
    });
  });

  it('survives a malformed payload: the signal is recorded, the update refused, and the run goes on', async () => {
    const task = uniqueId('malformed');
    fake.script(task, [reply(write('m.txt')), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      await parked(handle);
      const malformed = { foo: 1 } as never;
      await handle.signal(approvalSignal, malformed);
      const status = await waitFor(async () => {
        const s = await handle.query(statusQuery);
        return s.ignored.length > 0 ? s : undefined;
      }, 'the malformed signal to be recorded');
      expect(status.phase).toBe('waiting_approval');
      expect(status.ignored[0]).toMatchObject({ kind: 'approval', payload: '{"foo":1}' });
      expect(status.ignored[0]?.reason).toMatch(/^malformed approval payload/);
      const refused = await handle.executeUpdate(decideApprovalUpdate, { args: [malformed] }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((refused as WorkflowUpdateFailedError).cause?.message).toMatch(/^Malformed approval: callId/);
      const bad = await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'maybe' } as never] }).catch((e: unknown) => e);
      expect((bad as WorkflowUpdateFailedError).cause?.message).toMatch(/^Malformed approval: decision/);
      // A flood of junk cannot grow the run's state without bound.
      for (let i = 0; i < 25; i++) await handle.signal(approvalSignal, [i] as never);
      const flooded = await waitFor(async () => {
        const s = await handle.query(statusQuery);
        return s.ignored.at(-1)?.payload === '[24]' ? s : undefined;
      }, 'the flood to be recorded');
      expect(flooded.ignored).toHaveLength(20);
      expect(flooded.pendingApprovals.map((p) => p.callId)).toEqual(['toolu_0_0']);

      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve' });
      expect((await handle.result()).status).toBe('completed');
    });
  });
});
