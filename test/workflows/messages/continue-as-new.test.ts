// Issue 31, findings 2 and 3: continue-as-new hands the next link the state as it is after every
// handler finished (not a snapshot from before the wait), and a thread never waits forever for a
// message to leave its inbox when it continues as new with messages still queued.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { WorkflowUpdateStage, type WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../../scripts/temporal-dev-server';
import { closeThreadUpdate, decideApprovalUpdate, sendMessageUpdate, statusQuery, type AgentRunWorkflow } from '../../../src/contract/agent-run-api';
import type { DecisionOutcome } from '../../../src/contract/approval-decision';
import { waitFor, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';
import { complete, parked, write } from '../approval-test-kit';
import { within } from './message-kit';

const look = () => reply(toolCall('list_files', { path: '.' }));

describe('continue-as-new with messages in flight', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  // The server lets 10 updates of one workflow be in flight at once by default (a thread's sendMessage
  // stays in flight until its turn starts); this server allows more, so all 15 reach the run together.
  let server: DevServer | undefined;
  beforeAll(async () => {
    server = await startDevServer({ headless: true, dynamicConfig: { 'history.maxInFlightUpdates': 50 } });
  });
  afterAll(() => server?.stop());

  it('answers 15 follow-ups sent at once to a thread about to continue as new, and delivers every one', async () => {
    const task = uniqueId('fifteen');
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    fake.script(task, [look().until(gate), look(), complete('answer 0'), ...Array.from({ length: 15 }, (_, i) => complete(`answer ${i + 1}`))]);
    await withAgentWorker({ ...bed.harness(), address: server!.address }, async ({ start }) => {
      const handle = await start({ agent: 'general', task, followUps: true, historyBudget: { maxEvents: 50 } });
      await waitFor(async () => (fake.requestsFor(task).length > 0 ? true : undefined), 'the first model request');
      const texts = Array.from({ length: 15 }, (_, i) => `message ${i + 1}`);
      const updates = await Promise.all(texts.map((text) => handle.startUpdate(sendMessageUpdate, { args: [{ text }], waitForStage: WorkflowUpdateStage.ACCEPTED })));
      open();
      const outcomes: DecisionOutcome[] = await within(Promise.all(updates.map((u) => u.result())), 60_000, 'the 15 sendMessage updates');
      expect(outcomes.every((o) => o.applied)).toBe(true);
      await waitFor(async () => ((await handle.query(statusQuery)).phase === 'idle' && fake.requestsFor(task).length === 18 ? true : undefined), 'all 16 answers', 60_000);
      const status = await handle.query(statusQuery);
      expect(status.continueAsNewLinks).toBeGreaterThan(0);
      await handle.executeUpdate(closeThreadUpdate, { args: [] });
      const result = await handle.result();
      expect(result.completions?.map((c) => c.summary)).toEqual(Array.from({ length: 16 }, (_, i) => `answer ${i}`));
      // Every message reached the model once, each as the message of its own turn.
      const delivered = fake.requestsFor(task).slice(3).map((r) => JSON.stringify(r.body.messages.at(-1)?.content));
      expect(texts.map((text) => delivered.filter((d) => d.includes(`"${text}"`)).length)).toEqual(texts.map(() => 1));
    });
  });

  it('carries an edited decision applied while the run was handing over into the next link', async () => {
    // The run parks with the history just short of its budget: the update's own events fill it, so
    // the run would continue as new while the edit is being checked.
    const script = (task: string) => fake.script(task, [look(), look(), look(), look(), look(), reply(write('notes.md', 'original')), complete('wrote it')]);
    const calibrate = uniqueId('calibrate');
    const task = uniqueId('stale');
    script(calibrate);
    script(task);
    await withAgentWorker(bed.harness(), async ({ start, workspace }) => {
      const probe = await start({ agent: 'general', task: calibrate });
      await parked(probe);
      const parkedAt = (await probe.describe()).historyLength;
      await probe.terminate('calibrated');
      expect(parkedAt + 1, 'the run must park past the smallest budget allowed').toBeGreaterThanOrEqual(50);
      const handle: WorkflowHandle<AgentRunWorkflow> = await start({ agent: 'general', task, historyBudget: { maxEvents: parkedAt + 1 } });
      await parked(handle);
      const outcome = await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_5_0', decision: 'approve', approver: 'ann', arguments: { path: 'notes.md', content: 'edited' } }] });
      expect(outcome).toEqual({ applied: true, message: 'approve applied to toolu_5_0 with the edited arguments' });
      const result = await within(handle.result(), 30_000, 'the run after its decision');
      expect(result.status).toBe('completed');
      expect(await readFile(path.join(workspace, handle.workflowId, 'notes.md'), 'utf8').catch(() => readFile(path.join(workspace, 'notes.md'), 'utf8'))).toBe('edited');
      const status = await handle.query(statusQuery);
      expect(status.decisions.filter((d) => d.callId === 'toolu_5_0')).toEqual([expect.objectContaining({ decision: 'approve', approver: 'ann' })]);
    });
  });
});
