// Issue 32, findings 3 and 4, over the console's HTTP routes with a real worker: a decision carries
// the hash of the arguments the page showed, and one for arguments that are not the call's now is
// refused, and one that names none is a bad request (400); "Approve all N" sends the calls shown and the console approves exactly those, all or none.
import { describe, expect, it } from 'vitest';
import { statusQuery } from '../../src/contract/agent-run-api';
import { argumentsHash } from '../../src/core/approvals/signatures/signed-message';
import { useAgentTestbed } from '../support/agent-testbed';
import { waitForApprovals, withAgentWorker } from '../support/agent-run-harness';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { consoleFor } from './console-for';

const write = (file: string) => toolCall('write_file', { path: file, content: file });
const complete = () => reply(toolCall('complete_task', { summary: 'done', status: 'success' }));

describe('the console decides what the person saw', () => {
  const bed = useAgentTestbed();

  it('refuses a decision for arguments the call does not have now; approves exactly the calls "Approve all" sent, all or none', async () => {
    const task = uniqueId('seen-calls');
    bed.fake.script(task, [reply(write('a.txt'), write('b.txt'), write('c.txt')), complete()]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const { built, as } = await consoleFor(harness);
      try {
        const alice = await as('alice');
        const handle = await harness.start({ agent: 'general', task });
        const { pendingApprovals } = await waitForApprovals(handle, 3);
        const [a, b, c] = pendingApprovals.map((p) => ({ workflowId: handle.workflowId, callId: p.callId, argumentsHash: argumentsHash(p.input) }));
        const stale = argumentsHash({ path: 'a.txt', content: 'what an older card showed' });

        // A decision that does not say what was shown is not a decision the page makes: 400, naming the field.
        const { argumentsHash: _shown, ...unsaid } = a!;
        const bare = await alice.postJson('/api/decisions', { ...unsaid, decision: 'approve' });
        expect(bare.status).toBe(400);
        expect(await bare.json()).toMatchObject({ error: expect.stringContaining("argumentsHash is missing: send the sha-256 of the call's arguments as the page showed them") });
        expect((await handle.query(statusQuery)).decisions).toEqual([]);

        const refused = await alice.postJson('/api/decisions', { ...a, argumentsHash: stale, decision: 'approve' });
        expect(refused.status).toBe(409);
        expect(await refused.json()).toMatchObject({ outcome: 'refused', message: expect.stringContaining(`the arguments of ${a!.callId} changed since the page showed them`) });

        // The page showed a and b (c parked later, say): one shown hash is stale, so nothing is approved.
        const none = await alice.postJson(`/api/runs/${handle.workflowId}/approve-all`, { calls: [a, { ...b!, argumentsHash: stale }] });
        expect(none.status).toBe(409);
        expect((await handle.query(statusQuery)).decisions).toEqual([]);
        expect((await alice.postJson(`/api/runs/${handle.workflowId}/approve-all`, {})).status).toBe(400);

        const some = await alice.postJson(`/api/runs/${handle.workflowId}/approve-all`, { calls: [a, b] });
        expect(some.status).toBe(200);
        const status = await handle.query(statusQuery);
        expect(status.decisions.map((d) => d.callId).sort()).toEqual([a!.callId, b!.callId].sort());
        expect(status.pendingApprovals.map((p) => p.callId)).toEqual([c!.callId]);

        const applied = await alice.postJson('/api/decisions', { ...c, decision: 'approve' });
        expect(applied.status).toBe(200);
        expect((await handle.result()).status).toBe('completed');
      } finally {
        await built.stop();
      }
    });
  });
});
