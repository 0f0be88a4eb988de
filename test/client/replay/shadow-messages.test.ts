// People's messages in a replay (issue 35): a steering message the recorded run got while it worked
// reaches the shadow before the same request, and a thread's follow-ups start the same turns, so
// both replay without a divergence and without a model call.
import { describe, expect, it } from 'vitest';
import { closeThreadUpdate, sendMessageUpdate, statusQuery, userMessageSignal } from '../../../src/contract/agent-run-api';
import { waitFor, waitForPhase, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';
import { openTestLab } from './replay-support';

const bed = useAgentTestbed();
const fake = bed.fake;
const complete = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));

describe("people's messages in a shadow", () => {
  it('hands a steering message to the shadow before the request that carried it', async () => {
    const task = uniqueId('replay-steered');
    let open!: () => void;
    fake.script(task, [reply(toolCall('list_files', { path: '.' })).until(new Promise<void>((resolve) => (open = resolve))), reply(toolCall('list_files', { path: 'src' })), complete('listed, with tabs')]);
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      const run = await start({ agent: 'general', task });
      await waitFor(async () => (fake.requestsFor(task).length === 1 ? true : undefined), 'the first model request');
      await run.signal(userMessageSignal, { text: 'use tabs, "not" spaces', sender: 'ana' });
      open();
      await run.result();
      expect(JSON.stringify(fake.requestsFor(task)[1]!.body.messages.at(-1))).toContain('use tabs');
      const requests = fake.requests.length;
      const lab = await openTestLab(client, fake);
      try {
        const report = await lab.replay(run.workflowId);
        expect(report.firstDivergence).toBeNull();
        expect(report.modelCalls).toEqual({ recorded: 3, replayed: 3, live: 0 });
        expect(report.notes).toEqual([]);
        expect(fake.requests.length).toBe(requests);
      } finally {
        await lab.close();
      }
    });
  });

  it("starts a thread's turns with its recorded follow-ups, and closes it after the last", async () => {
    const task = uniqueId('replay-thread');
    fake.script(task, [complete('first answer'), reply(toolCall('list_files', { path: '.' })), complete('second answer')]);
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      const run = await start({ agent: 'general', task, followUps: true });
      await waitForPhase(run, 'idle', 30_000);
      await run.executeUpdate(sendMessageUpdate, { args: [{ text: 'now list the files', sender: 'ana' }] });
      await waitFor(async () => ((await run.query(statusQuery)).completions.length === 2 ? true : undefined), 'the second answer', 30_000);
      await run.executeUpdate(closeThreadUpdate, { args: [] });
      await run.result();
      const lab = await openTestLab(client, fake);
      try {
        const report = await lab.replay(run.workflowId);
        expect(report.firstDivergence).toBeNull();
        expect(report.modelCalls).toEqual({ recorded: 3, replayed: 3, live: 0 });
        expect(report.completion.shadow).toEqual(report.completion.recorded);
      } finally {
        await lab.close();
      }
    });
  });
});
