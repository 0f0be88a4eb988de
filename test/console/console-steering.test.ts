// Only approvers steer a restricted run, through the console's JSON routes: a logged-in person who is
// not one of the run's approvers cannot answer its question or send it a follow-up, and the page
// gets the run's reason; the approver can. The person is the session's user, never a field of the body.
import { describe, expect, it } from 'vitest';
import { statusQuery } from '../../src/contract/agent-run-api';
import { useAgentTestbed } from '../support/agent-testbed';
import { waitFor, waitForPhase, withAgentWorker } from '../support/agent-run-harness';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { consoleFor } from './console-for';

const done = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));

describe('console: only approvers steer a restricted run', () => {
  const bed = useAgentTestbed();

  it("refuses bo's answer and follow-up to alice's approvers-only thread, and takes alice's", async () => {
    const task = uniqueId('console-steer');
    bed.fake.script(task, [reply(toolCall('need_more_information', { question: 'Which environment?' })), done('first'), done('second')]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const { built, as } = await consoleFor(harness);
      try {
        const handle = await harness.start({ agent: 'general', task, followUps: true, approvers: ['alice'], user: 'alice' });
        const { pendingQuestion } = await waitForPhase(handle, 'waiting_input');
        const bo = await as('bo');
        const alice = await as('alice');
        const answer = { workflowId: handle.workflowId, callId: pendingQuestion!.callId, text: 'production' };

        // bo says he is alice in the body: the route ignores it and answers as the session's user.
        const refused = await bo.postJson('/api/replies', { ...answer, sender: 'alice' });
        expect(refused.status).toBe(409);
        expect(await refused.json()).toEqual({ outcome: 'refused', message: '"bo" may not answer questions of this run (approvers: alice); ignored' });
        expect((await handle.query(statusQuery)).phase).toBe('waiting_input');

        const applied = await alice.postJson('/api/replies', { ...answer, text: 'staging' });
        expect(await applied.json()).toMatchObject({ outcome: 'applied' });
        await waitForPhase(handle, 'idle');

        const message = await bo.postJson(`/api/runs/${handle.workflowId}/messages`, { text: 'drop the database' });
        expect(message.status).toBe(409);
        expect(await message.json()).toEqual({ outcome: 'refused', message: '"bo" may not send follow-up messages to this run (approvers: alice); ignored' });

        const sent = await alice.postJson(`/api/runs/${handle.workflowId}/messages`, { text: 'summarise again' });
        expect(await sent.json()).toMatchObject({ outcome: 'applied' });
        await waitFor(async () => ((await handle.query(statusQuery)).completions.length === 2 ? true : undefined), 'the second answer');
        await handle.terminate('test done');
      } finally {
        await built.stop();
      }
    });
    const requests = bed.fake.requestsFor(task);
    expect(JSON.stringify(requests.map((r) => r.body.messages))).not.toMatch(/production|drop the database/);
  });
});
