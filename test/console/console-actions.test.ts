// What the console's JSON routes do against a real run: decisions signed with the person's key when
// the worker requires signatures, refusals with the run's reason, "already decided" instead of an
// error, replies, and the run view's live model text. No browser: requests go into the Hono app.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApproverKey, KEYS_DIR_ENV } from '../../src/client/approver-keys';
import { hashPassword } from '../../src/console/auth/password-hash';
import { consoleOptions } from '../../src/console/console-options';
import { loadRunDetail } from '../../src/console/runs/run-detail';
import { buildConsole, type BuiltConsole } from '../../src/console/start-console';
import { decideApprovalUpdate, statusQuery, submitReplyUpdate } from '../../src/workflows/definitions';
import { useAgentTestbed } from '../support/agent-testbed';
import { waitFor, waitForApprovals, waitForPhase, withAgentWorker, type RunHarness } from '../support/agent-run-harness';
import { reply, text, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { HttpSession } from './http-session';

const complete = () => reply(toolCall('complete_task', { summary: 'done', status: 'success' }));

async function consoleFor(harness: RunHarness): Promise<{ built: BuiltConsole; as(name: string): Promise<HttpSession> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'console-users-'));
  const usersFile = path.join(dir, 'users.json');
  const passwordHash = await hashPassword('pw');
  await writeFile(usersFile, JSON.stringify({ users: [{ name: 'alice', passwordHash }, { name: 'bo', passwordHash }] }));
  const built = buildConsole(consoleOptions({ usersFile, localUser: 'owner', taskQueue: harness.taskQueue, filter: `TaskQueue = '${harness.taskQueue}'` }, {}), { client: harness.client });
  return {
    built,
    async as(name) {
      const session = new HttpSession(built.app);
      expect((await session.login(name, 'pw')).status).toBe(303);
      return session;
    },
  };
}

describe('console actions', () => {
  const bed = useAgentTestbed();
  const savedKeysDir = process.env[KEYS_DIR_ENV];
  afterEach(() => {
    if (savedKeysDir === undefined) delete process.env[KEYS_DIR_ENV];
    else process.env[KEYS_DIR_ENV] = savedKeysDir;
  });

  it('signs a decision with the person\'s key when the worker requires signatures; a person without a key is refused with the run\'s reason', async () => {
    const keys = await mkdtemp(path.join(tmpdir(), 'console-keys-'));
    const alice = createApproverKey('alice', { dir: keys });
    const registry = path.join(keys, 'approvers.json');
    await writeFile(registry, JSON.stringify(alice.registryEntry));
    process.env[KEYS_DIR_ENV] = keys;
    const task = uniqueId('console-signed');
    bed.fake.script(task, [reply(toolCall('write_file', { path: 'a.md', content: 'a' })), complete()]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registry } }, async (harness) => {
      const { built, as } = await consoleFor(harness);
      try {
        const handle = await harness.start({ agent: 'general', task });
        const { pendingApprovals, signedDecisions } = await waitForApprovals(handle);
        expect(signedDecisions).toBe(true);
        const decision = { workflowId: handle.workflowId, callId: pendingApprovals[0]!.callId, decision: 'approve' };

        const refused = await (await as('bo')).postJson('/api/decisions', decision);
        expect(refused.status).toBe(409);
        expect(await refused.json()).toEqual({ outcome: 'refused', message: expect.stringMatching(/^unsigned decision: this worker requires signed decisions/) });

        const applied = await (await as('alice')).postJson('/api/decisions', decision);
        expect(await applied.json()).toEqual({ outcome: 'applied', message: `approve applied to ${decision.callId}` });
        expect(applied.status).toBe(200);
        await handle.result();
        expect((await handle.query(statusQuery)).decisions).toEqual([expect.objectContaining({ approver: 'alice', verified: true, via: 'update' })]);
      } finally {
        await built.stop();
      }
    });
  });

  it('says a call or question decided elsewhere is already decided, instead of failing', async () => {
    const task = uniqueId('console-already');
    bed.fake.script(task, [reply(toolCall('shell', { command: 'echo hi' })), reply(toolCall('need_more_information', { question: 'Which one?' })), complete()]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const { built, as } = await consoleFor(harness);
      try {
        const alice = await as('alice');
        const handle = await harness.start({ agent: 'general', task });
        const { pendingApprovals } = await waitForApprovals(handle);
        const callId = pendingApprovals[0]!.callId;
        await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId, decision: 'reject', approver: 'cli-tester' }] });
        const late = await alice.postJson('/api/decisions', { workflowId: handle.workflowId, callId, decision: 'approve' });
        expect(late.status).toBe(200);
        expect(await late.json()).toEqual({ outcome: 'already_decided', message: expect.stringMatching(/^Already decided: reject by cli-tester at \d{4}-/) });

        const { pendingQuestion } = await waitForPhase(handle, 'waiting_input');
        await handle.executeUpdate(submitReplyUpdate, { args: [{ text: 'the first' }] });
        const answer = await alice.postJson('/api/replies', { workflowId: handle.workflowId, callId: pendingQuestion!.callId, text: 'the second' });
        expect(await answer.json()).toEqual({ outcome: 'already_decided', message: 'Already answered: this question is no longer waiting.' });
        await handle.result();

        // A decision for a run that ended is refused with the reason, and the follow-up hook says it is not supported.
        const ended = await alice.postJson('/api/decisions', { workflowId: handle.workflowId, callId: 'toolu_x', decision: 'approve' });
        expect(await ended.json()).toMatchObject({ outcome: 'refused', message: expect.stringContaining('has already ended') });
        const followUp = await alice.postJson(`/api/runs/${handle.workflowId}/messages`, { text: 'more please' });
        expect(followUp.status).toBe(501);
        const unknown = await alice.postJson('/api/runs/no-such-run/cancel', {});
        expect(unknown.status).toBe(404);
      } finally {
        await built.stop();
      }
    });
  });

  it('shows the model\'s text while it streams, from the activity heartbeat', async () => {
    const task = uniqueId('console-live');
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    bed.fake.script(task, [reply(text(words), toolCall('complete_task', { summary: 'done', status: 'success' })).chunked(20, 100)]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const handle = await harness.start({ agent: 'general', task });
      const live = await waitFor(async () => {
        const detail = await loadRunDetail(harness.client, handle.workflowId, {});
        return detail.liveText && detail.liveText.text.length > 0 ? detail.liveText : undefined;
      }, 'streamed text in the heartbeat');
      expect(words.startsWith(live.text)).toBe(true);
      expect(live.attempt).toBe(1);
      await handle.result();
      const after = await loadRunDetail(harness.client, handle.workflowId, { uiBaseUrl: 'http://localhost:8233/' });
      expect(after).toMatchObject({ execution: 'COMPLETED', liveText: undefined, status: { completion: { summary: 'done' } } });
      expect(after.temporalUiUrl).toBe(`http://localhost:8233/namespaces/default/workflows/${encodeURIComponent(handle.workflowId)}`);
    });
  });
});
