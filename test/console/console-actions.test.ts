// What the console's JSON routes do against a real run: decisions signed with the person's key when
// the worker requires signatures, refusals with the run's reason, "already decided" instead of an
// error, replies, and the run view's live model text. No browser: requests go into the Hono app.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApproverKey, KEYS_DIR_ENV } from '../../src/client/approver-keys';
import { threadFollowUp } from '../../src/console/actions/follow-up';
import { loadRunDetail } from '../../src/console/runs/run-detail';
import { consoleRunsQuery } from '../../src/console/runs/run-list';
import { RunsWatcher } from '../../src/console/runs/runs-watcher';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { decideApprovalUpdate, statusQuery, submitReplyUpdate } from '../../src/contract/agent-run-api';
import { argumentsHash } from '../../src/core/approvals/signatures/signed-message';
import { useAgentTestbed } from '../support/agent-testbed';
import { waitFor, waitForApprovals, waitForPhase, withAgentWorker } from '../support/agent-run-harness';
import { reply, text, thinking, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { consoleFor } from './console-for';

const complete = () => reply(toolCall('complete_task', { summary: 'done', status: 'success' }));
const general = builtinAgents.find((a) => a.name === 'general')!;
/** A coordinator that may delegate to a specialist, as in test/workflows/teams.test.ts. */
const specialist: AgentDefinitionInput = { ...general, name: 'specialist', description: 'Runs commands in the workspace.', modelTier: 'fast' };
const team: AgentDefinitionInput[] = [{ ...general, name: 'coordinator', description: 'Splits work.', subAgents: ['specialist'] }, specialist, general];

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
        const decision = { workflowId: handle.workflowId, callId: pendingApprovals[0]!.callId, decision: 'approve', argumentsHash: argumentsHash(pendingApprovals[0]!.input) };

        const refused = await (await as('bo')).postJson('/api/decisions', decision);
        expect(refused.status).toBe(409);
        expect(await refused.json()).toEqual({ outcome: 'refused', message: expect.stringMatching(/^unsigned decision: this worker requires signatures/) });

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
        const late = await alice.postJson('/api/decisions', { workflowId: handle.workflowId, callId, decision: 'approve', argumentsHash: argumentsHash(pendingApprovals[0]!.input) });
        expect(late.status).toBe(200);
        expect(await late.json()).toEqual({ outcome: 'already_decided', message: expect.stringMatching(/^Already decided: reject by cli-tester at \d{4}-/) });

        const { pendingQuestion } = await waitForPhase(handle, 'waiting_input');
        await handle.executeUpdate(submitReplyUpdate, { args: [{ text: 'the first' }] });
        const answer = await alice.postJson('/api/replies', { workflowId: handle.workflowId, callId: pendingQuestion!.callId, text: 'the second' });
        expect(await answer.json()).toEqual({ outcome: 'already_decided', message: 'Already answered: this question is no longer waiting.' });
        await handle.result();

        // A decision or a follow-up for a run that ended is refused with the reason.
        const ended = await alice.postJson('/api/decisions', { workflowId: handle.workflowId, callId: 'toolu_x', decision: 'approve', argumentsHash: argumentsHash({}) });
        expect(await ended.json()).toMatchObject({ outcome: 'refused', message: expect.stringContaining('has already ended') });
        const followUp = await alice.postJson(`/api/runs/${handle.workflowId}/messages`, { text: 'more please' });
        expect(followUp.status).toBe(409);
        expect(await followUp.json()).toMatchObject({ outcome: 'refused', message: expect.stringContaining('has already ended') });
        const unknown = await alice.postJson('/api/runs/no-such-run/cancel', {});
        expect(unknown.status).toBe(404);
      } finally {
        await built.stop();
      }
    });
  });

  it("shows the model's thinking apart from its text while the call streams, and the run's thinking tokens", async () => {
    const task = uniqueId('console-thinking');
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const done = toolCall('complete_task', { summary: 'done', status: 'success' });
    bed.fake.script(task, [reply(thinking('I should say sixty words.'), text(words), done).chunked(20, 100).withUsage({ output_tokens_details: { thinking_tokens: 9 } })]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const handle = await harness.start({ agent: 'general', task });
      const live = await waitFor(async () => {
        const detail = await loadRunDetail(harness.client, handle.workflowId, {});
        return detail.liveText?.thinking ? detail.liveText : undefined;
      }, 'streamed thinking in the heartbeat');
      expect(live).toMatchObject({ thinking: 'I should say sixty words.', thinkingChars: 25 });
      expect(live.text).not.toContain('sixty');
      await handle.result();
      expect((await loadRunDetail(harness.client, handle.workflowId, {})).status?.usage.thinkingTokens).toBe(9);
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

  it('starts a thread from the page\'s route and sends it a follow-up; a run that is not a thread takes one as steering', async () => {
    const task = uniqueId('console-thread');
    const plain = uniqueId('console-not-thread');
    bed.fake.script(task, [reply(toolCall('complete_task', { summary: 'first answer', status: 'success' })), reply(toolCall('complete_task', { summary: 'second answer', status: 'success' }))]);
    bed.fake.script(plain, [reply(toolCall('need_more_information', { question: 'Which one?' })), complete()]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const { built, as } = await consoleFor(harness);
      try {
        const alice = await as('alice');
        const started = await alice.postJson('/api/runs', { agent: 'general', task, followUps: true });
        expect(started.status).toBe(201);
        const handle = harness.client.workflow.getHandle(((await started.json()) as { workflowId: string }).workflowId);
        const idle = await waitForPhase(handle, 'idle', 30_000);
        expect(idle).toMatchObject({ followUps: true, user: 'alice', completion: { summary: 'first answer' } });
        expect(threadFollowUp.supports(idle)).toBe(true);

        const sent = await alice.postJson(`/api/runs/${handle.workflowId}/messages`, { text: 'and now the second part' });
        expect(sent.status).toBe(200);
        expect(await sent.json()).toMatchObject({ outcome: 'applied' });
        const answered = await waitFor(async () => {
          const s = await handle.query(statusQuery);
          return s.phase === 'idle' && s.completions.length === 2 ? s : undefined;
        }, 'the second answer', 30_000);
        expect(answered.completions.map((c) => c.summary)).toEqual(['first answer', 'second answer']);
        expect(JSON.stringify(bed.fake.requestsFor(task)[1]?.body.messages.at(-1))).toContain('and now the second part');

        const other = await harness.start({ agent: 'general', task: plain });
        const waiting = await waitForPhase(other, 'waiting_input');
        // Changed with issue 23: a working or waiting run that is not a thread takes a steering message.
        expect(threadFollowUp.supports(waiting)).toBe(true);
        const steered = await alice.postJson(`/api/runs/${other.workflowId}/messages`, { text: 'hello' });
        expect(steered.status).toBe(200);
        expect(await steered.json()).toMatchObject({ outcome: 'applied', message: expect.stringContaining('queued') });
        expect((await other.query(statusQuery)).phase).toBe('waiting_input');
        await other.terminate('test done');
        await handle.terminate('test done');
      } finally {
        await built.stop();
      }
    });
  });

  it('lists a sub-agent\'s call once, under its root, and a decision sent to the waiting run lets the root finish', async () => {
    const task = uniqueId('console-tree');
    const subTask = uniqueId('console-sub');
    bed.fake.script(task, [reply(toolCall('delegate_task', { agent: 'specialist', task: subTask })), reply(toolCall('complete_task', { summary: 'root done', status: 'success' }))]);
    bed.fake.script(subTask, [reply(toolCall('shell', { command: 'echo from-the-child' })), reply(toolCall('complete_task', { summary: 'child done', status: 'success' }))]);
    await withAgentWorker({ ...bed.harness(), agents: team }, async (harness) => {
      const { built, as } = await consoleFor(harness);
      const watcher = new RunsWatcher(harness.client, { query: consoleRunsQuery(`TaskQueue = '${harness.taskQueue}'`), limit: 50, pollMs: 250 });
      try {
        const root = await harness.start({ agent: 'coordinator', task });
        await waitForApprovals(root, 1, 30_000);
        const childId = `${root.workflowId}/sub-toolu_0_0`;
        // Both the root (for its sub-agent) and the child (for itself) report the call; it shows once.
        const { inbox, runs } = await waitFor(async () => {
          const snapshot = await watcher.tick();
          return snapshot.runs.length === 2 && snapshot.inbox.length > 0 ? snapshot : undefined;
        }, 'the root and its sub-agent in the console', 30_000);
        expect(inbox).toEqual([expect.objectContaining({ kind: 'approval', rootWorkflowId: root.workflowId, workflowId: childId, agent: 'specialist', task: subTask, tool: 'shell' })]);
        expect(runs.find((r) => r.workflowId === childId)).toMatchObject({ parentWorkflowId: root.workflowId, rootWorkflowId: root.workflowId, waiting: 1 });

        const decided = await (await as('alice')).postJson('/api/decisions', { workflowId: childId, callId: inbox[0]!.callId, decision: 'approve', argumentsHash: inbox[0]!.kind === 'approval' ? inbox[0]!.argumentsHash : '' });
        expect(await decided.json()).toMatchObject({ outcome: 'applied' });
        expect((await root.result()).completion?.summary).toBe('root done');
        expect((await watcher.tick()).inbox).toEqual([]);
      } finally {
        await watcher.close();
        await built.stop();
      }
    });
  });

  it('cancels a run and resumes it from the page\'s routes; a second cancel says the run already ended', async () => {
    const task = uniqueId('console-steer');
    bed.fake.script(task, [reply(toolCall('write_file', { path: 'steer.md', content: 'x' })), complete(), complete()]);
    await withAgentWorker(bed.harness(), async (harness) => {
      const { built, as } = await consoleFor(harness);
      try {
        const alice = await as('alice');
        const handle = await harness.start({ agent: 'general', task });
        await waitForApprovals(handle);
        const cancelled = await alice.postJson(`/api/runs/${handle.workflowId}/cancel`, {});
        expect(cancelled.status).toBe(200);
        expect(await cancelled.json()).toEqual({ cancelled: true, message: `Cancellation requested for ${handle.workflowId}.` });
        await waitFor(async () => ((await handle.describe()).status.name === 'RUNNING' ? undefined : true), 'the run to end', 30_000);
        expect((await handle.query(statusQuery)).phase).toBe('cancelled');
        const again = await alice.postJson(`/api/runs/${handle.workflowId}/cancel`, {});
        expect(again.status).toBe(409);
        expect(await again.json()).toMatchObject({ cancelled: false, message: expect.stringContaining('already ended') });

        const resumed = await alice.postJson(`/api/runs/${handle.workflowId}/resume`, { maxIterations: 4 });
        expect(resumed.status).toBe(201);
        const { workflowId } = (await resumed.json()) as { workflowId: string };
        expect(workflowId).toBe(`${handle.workflowId}-r2`);
        const next = harness.client.workflow.getHandle(workflowId);
        expect(await waitFor(async () => (await next.query(statusQuery).catch(() => undefined))?.resumedFrom, 'the resumed run', 30_000)).toBe(handle.workflowId);
        await next.terminate('test done');
      } finally {
        await built.stop();
      }
    });
  });
});
