// Issue 32, finding 1, end to end over the console's HTTP routes with an approver registry: in a run
// with approvers, fork and resume are an approver's decisions. A colleague (a console user who is not
// an approver) is refused; a raw client's start without a signed request from an approver fails; the
// requester is recorded; a fork never starts looser than the original is now; an "always" carries over
// only to a fork its maker asked for.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApproverKey, KEYS_DIR_ENV } from '../../src/client/approver-keys';
import { planFork } from '../../src/client/fork-run';
import { startRun } from '../../src/client/start-run';
import { statusQuery } from '../../src/contract/agent-run-api';
import { argumentsHash } from '../../src/core/approvals/signatures/signed-message';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { useAgentTestbed } from '../support/agent-testbed';
import { waitFor, waitForApprovals, withAgentWorker, type RunHarness } from '../support/agent-run-harness';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { consoleFor } from './console-for';

const general = builtinAgents.find((a) => a.name === 'general')!;
/** `general` in acceptEdits by its own definition: with a registry, a run may not start looser than its agent. */
const lenient = { ...general, name: 'lenient', mode: 'acceptEdits' as const };

const complete = (summary = 'done') => reply(toolCall('complete_task', { summary, status: 'success' }));
const shell = (command: string) => reply(toolCall('shell', { command }));

/** Keys for ana and cara (the approvers) and bo (a colleague with a registered key of his own). */
async function registry(): Promise<string> {
  const keys = await mkdtemp(path.join(tmpdir(), 'fork-keys-'));
  const entries = Object.assign({}, ...['ana', 'cara', 'bo'].map((name) => createApproverKey(name, { dir: keys }).registryEntry));
  const file = path.join(keys, 'approvers.json');
  await writeFile(file, JSON.stringify(entries));
  process.env[KEYS_DIR_ENV] = keys;
  return file;
}

/** Starts the fork `planFork` plans for `requestedBy`, with its request changed by `tamper`; returns how it ended. */
async function rawFork(harness: RunHarness, from: string, tamper: (input: Record<string, unknown>) => void): Promise<string> {
  const plan = await planFork(harness.client, from, { iteration: 1, requestedBy: 'ana' });
  tamper(plan.input as Record<string, unknown>);
  const handle = await startRun(harness.client, plan.input, { taskQueue: harness.taskQueue, workflowId: plan.workflowId });
  return handle.result().then(
    () => 'completed',
    (error: Error) => (error.cause as Error | undefined)?.message ?? error.message,
  );
}

describe('fork and resume of a run with approvers (issue 32, finding 1)', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, lenient] });
  const savedKeysDir = process.env[KEYS_DIR_ENV];
  afterEach(() => {
    if (savedKeysDir === undefined) delete process.env[KEYS_DIR_ENV];
    else process.env[KEYS_DIR_ENV] = savedKeysDir;
  });

  it('refuses the colleague and unsigned or forged raw starts; the approver forks in the stricter mode, recorded as the requester', async () => {
    const approvers = await registry();
    const task = uniqueId('fork-approvers');
    // The original lists files, then parks a command while ana tightens it to plan. The fork (ana's) tries to write.
    bed.fake.script(task, [reply(toolCall('list_files', { path: '.' })), shell('rm -f nothing.txt'), reply(toolCall('write_file', { path: 'PWNED-fork.txt', content: 'x' })), complete('fork')]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: approvers } }, async (harness) => {
      const { built, as } = await consoleFor(harness, ['ana', 'cara', 'bo']);
      try {
        const [ana, bo] = [await as('ana'), await as('bo')];
        const original = await harness.start({ agent: 'lenient', task, user: 'ana', approvers: ['ana', 'cara'], mode: 'acceptEdits' });
        await waitForApprovals(original);
        expect((await ana.postJson(`/api/runs/${original.workflowId}/mode`, { mode: 'plan' })).status).toBe(200);

        const refused = await bo.postJson(`/api/runs/${original.workflowId}/fork`, { iteration: 1, task: 'write PWNED-fork.txt' });
        expect(refused.status).toBe(403);
        expect(await refused.json()).toMatchObject({ error: expect.stringContaining(`Only an approver of run ${original.workflowId} (ana, cara) may fork it, not "bo"`) });

        expect(await rawFork(harness, original.workflowId, (input) => delete input.requestedBy)).toMatch(/has approvers \(ana, cara\), so only one of them may fork or resume it/);
        expect(await rawFork(harness, original.workflowId, (input) => (input.requestedBy = { name: 'ana', kind: 'fork' }))).toMatch(/unsigned fork/);
        expect(await rawFork(harness, original.workflowId, (input) => (input.requestedBy = { ...(input.requestedBy as object), name: 'bo' }))).toMatch(/"bo" may not fork or resume/);
        expect(await rawFork(harness, original.workflowId, (input) => (input.requestedBy = { ...(input.requestedBy as object), name: 'cara' }))).toMatch(/bad signature for cara/);

        const forked = await ana.postJson(`/api/runs/${original.workflowId}/fork`, { iteration: 1, task: 'write PWNED-fork.txt' });
        expect(forked.status).toBe(201);
        const fork = harness.client.workflow.getHandle((await forked.json() as { workflowId: string }).workflowId);
        expect((await fork.result()).status).toBe('completed');
        const status = await fork.query(statusQuery);
        expect(status.mode).toBe('plan');
        expect((await fork.describe()).memo).toMatchObject({ forkedFrom: original.workflowId, requestedBy: 'ana' });
        expect(existsSync(path.join(harness.workspace, 'PWNED-fork.txt'))).toBe(false);

        await original.cancel();
        await waitFor(async () => ((await original.describe()).status.name === 'RUNNING' ? undefined : true), 'the run to end', 30_000);
        const notResumed = await bo.postJson(`/api/runs/${original.workflowId}/resume`, {});
        expect(notResumed.status).toBe(403);
        expect(await notResumed.json()).toMatchObject({ error: expect.stringContaining('may resume it, not "bo"') });
        const resumed = await ana.postJson(`/api/runs/${original.workflowId}/resume`, {});
        expect(resumed.status).toBe(201);
        const next = harness.client.workflow.getHandle(`${original.workflowId}-r2`);
        expect((await next.describe()).memo).toMatchObject({ resumedFrom: original.workflowId, requestedBy: 'ana' });
        expect(await waitFor(async () => (await next.query(statusQuery).catch(() => undefined))?.resumedFrom, 'the resumed run', 30_000)).toBe(original.workflowId);
        await next.terminate('test done');
      } finally {
        await built.stop();
      }
    });
  });

  it("carries ana's \"always\" into ana's fork, never into cara's; it covers only the file its line wrote", async () => {
    const approvers = await registry();
    const task = uniqueId('fork-choices');
    const append = 'echo hello >> forksteer.txt';
    // The fake answers by the number of turns so far, so a fork after iteration 1 gets the second reply.
    // Original: ana approves the append "always", the second append runs unasked. Cara's fork: the same
    // append parks. Ana's fork: it runs unasked. The same words writing another file park everywhere.
    const pwned = 'echo hello >> PWNED-forksteer.txt';
    bed.fake.script(task, [shell(append), shell(append), shell(pwned), complete()]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: approvers } }, async (harness) => {
      const { built, as } = await consoleFor(harness, ['ana', 'cara']);
      try {
        const [ana, cara] = [await as('ana'), await as('cara')];
        const original = await harness.start({ agent: 'general', task, user: 'ana', approvers: ['ana', 'cara'] });
        const { pendingApprovals } = await waitForApprovals(original);
        const decided = await ana.postJson('/api/decisions', { workflowId: original.workflowId, callId: pendingApprovals[0]!.callId, decision: 'approve_always', argumentsHash: argumentsHash(pendingApprovals[0]!.input) });
        expect(decided.status).toBe(200);
        const third = await waitForApprovals(original);
        expect(third.pendingApprovals[0]).toMatchObject({ input: { command: pwned } });
        // Ana's "always", then the line the remembered choice decided (patch rule-decision-lines).
        expect(third.decisions.map((d) => d.decision)).toEqual(['approve_always', 'policy_allow']);
        await ana.postJson('/api/decisions', { workflowId: original.workflowId, callId: third.pendingApprovals[0]!.callId, decision: 'reject', argumentsHash: argumentsHash(third.pendingApprovals[0]!.input) });
        expect((await original.result()).status).toBe('completed');

        const byCara = await cara.postJson(`/api/runs/${original.workflowId}/fork`, { iteration: 1, task: 'append again' });
        expect(byCara.status).toBe(201);
        const caraFork = harness.client.workflow.getHandle((await byCara.json() as { workflowId: string }).workflowId);
        const parked = await waitForApprovals(caraFork);
        expect(parked.pendingApprovals[0]).toMatchObject({ input: { command: append } });
        await caraFork.terminate('test done');

        const byAna = await ana.postJson(`/api/runs/${original.workflowId}/fork`, { iteration: 1, task: 'append again' });
        expect(byAna.status).toBe(201);
        const anaFork = harness.client.workflow.getHandle((await byAna.json() as { workflowId: string }).workflowId);
        const anaParked = await waitForApprovals(anaFork);
        expect(anaParked.pendingApprovals[0]).toMatchObject({ input: { command: pwned } });
        // Ana's "always" from the original, then the fork's append run unasked by it (its policy line).
        expect(anaParked.decisions.map((d) => `${d.callId} ${d.decision}`)).toEqual(['toolu_0_0 approve_always', 'toolu_1_0 policy_allow']);
        await anaFork.terminate('test done');
        expect(existsSync(path.join(harness.workspace, 'PWNED-forksteer.txt'))).toBe(false);
      } finally {
        await built.stop();
      }
    });
  });
});
