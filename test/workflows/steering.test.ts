// Steering a working run (issue 23, item 3) against a real Temporal server and the fake Messages API:
// a run that is not a thread takes `sendMessage` / `userMessage` while it works or waits, decides
// nothing with them, and shows them to the model at its next request, after the turn's tool results.
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { approvalSignal, sendMessageUpdate, statusQuery, userMessageSignal } from '../../src/contract/agent-run-api';
import { steeringNote } from '../../src/core/machine/on-steer';
import { resumeRun } from '../../src/client/resume-run';
import { waitFor, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { uniqueId } from '../support/temporal';
import { complete, parked, write } from './approval-test-kit';
import { reply } from '../support/fake-anthropic';

describe('steering a working run', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('a steering message reaches the next model request, after the tool results, and decides nothing while a call is parked', async () => {
    const task = uniqueId('steer');
    fake.script(task, [reply(write('notes.md', 'x')), complete()]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      await parked(handle);
      const outcome = await handle.executeUpdate(sendMessageUpdate, { args: [{ text: 'use tabs, not spaces', sender: 'ana' }] });
      expect(outcome).toMatchObject({ applied: true, message: expect.stringMatching(/queued/) });
      await handle.signal(userMessageSignal, { text: 'and keep it short' });
      // The signal is applied before the status query answers (both in order on the workflow).
      const status = await handle.query(statusQuery);
      expect(status.phase).toBe('waiting_approval');
      expect(status.decisions).toEqual([]);
      expect(status.ignored).toEqual([]);
      expect(fake.requestsFor(task)).toHaveLength(1);
      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve' });
      expect((await handle.result()).status).toBe('completed');
    });
    const last = fake.requestsFor(task)[1]?.body.messages.at(-1);
    expect(last?.role).toBe('user');
    expect(last?.content).toEqual([
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_0_0' }),
      { type: 'text', text: steeringNote('use tabs, not spaces', 'ana') },
      { type: 'text', text: steeringNote('and keep it short', undefined) },
    ]);
  });

  it('a steering message sent in the last iteration is not lost: the status and result warn of it, and resume delivers it at its first model request', async () => {
    const task = uniqueId('steer-cap');
    fake.script(task, [reply(write('notes.md', 'x')), complete('done after resume')]);
    await withAgentWorker(bed.harness(), async ({ start, client, taskQueue }) => {
      const handle = await start({ agent: 'general', task, maxIterations: 1 });
      await parked(handle);
      await handle.executeUpdate(sendMessageUpdate, { args: [{ text: 'use tabs, not spaces', sender: 'ana' }] });
      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve' });
      const capped = await handle.result();
      const warning = `1 message(s) sent to the run while it worked were not delivered: it reached its iteration cap (1) before its next model request. They are kept; \`agentctl resume ${handle.workflowId}\` delivers them at the resumed run's first model request.`;
      expect(capped.status).toBe('max_iterations');
      expect(capped.warnings).toEqual([warning]);
      expect((await handle.query(statusQuery)).warnings).toEqual([warning]);
      expect(fake.requestsFor(task)).toHaveLength(1);

      const { handle: resumed } = await resumeRun(client, handle.workflowId, { taskQueue });
      const result = await resumed.result();
      expect(result).toMatchObject({ status: 'completed', completion: { summary: 'done after resume' } });
      expect(result.warnings).toBeUndefined();
      expect((await resumed.query(statusQuery)).warnings).toEqual([]);
    });
    const first = fake.requestsFor(task)[1]?.body.messages.at(-1);
    expect(first?.role).toBe('user');
    expect(first?.content).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_0_0' }), { type: 'text', text: steeringNote('use tabs, not spaces', 'ana') }]));
    // Delivered once: the note is the last block of the resumed run's first request, and nowhere before.
    expect((first?.content as { text?: string }[]).at(-1)).toEqual({ type: 'text', text: steeringNote('use tabs, not spaces', 'ana') });
  });

  it('refuses a steering message to a run that has ended: the server takes no message for a closed run', async () => {
    const task = uniqueId('steer-closed');
    fake.script(task, [complete()]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      expect((await handle.result()).status).toBe('completed');
      const error = await handle.executeUpdate(sendMessageUpdate, { args: [{ text: 'too late' }] }).then(() => undefined, (e: unknown) => e);
      // A closed workflow takes no update at all: the server refuses it.
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/completed|closed/i);
    });
    expect(fake.requestsFor(task)).toHaveLength(1);
  });

  it('refuses a malformed message with the reason, and the run goes on', async () => {
    const task = uniqueId('steer-bad');
    fake.script(task, [reply(write('a.md', 'x')), complete()]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      await parked(handle);
      const error = await handle.executeUpdate(sendMessageUpdate, { args: [{ text: '' }] }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((error as WorkflowUpdateFailedError).cause?.message).toMatch(/Malformed message/);
      await handle.signal(userMessageSignal, { nope: 1 } as unknown as { text: string });
      const status = await waitFor(async () => {
        const s = await handle.query(statusQuery);
        return s.ignored.length > 0 ? s : undefined;
      }, 'the malformed signal to be recorded');
      expect(status.ignored[0]).toMatchObject({ kind: 'userMessage', reason: expect.stringMatching(/malformed/) });
      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve' });
      expect((await handle.result()).status).toBe('completed');
    });
    expect(JSON.stringify(fake.requestsFor(task)[1]?.body.messages.at(-1))).not.toContain('sent while you were working');
  });
});
