// Remembered choices against a real Temporal server: "always" and "never" scoped to what the person saw,
// kept across continue-as-new and across runs of the same user. The model is the scripted fake.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAgentTestbed } from '../support/agent-testbed';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { preferencesQuery, preferencesWorkflowId } from '../../src/core/approvals/preference-messages';
import { startRun } from '../../src/client/start-run';

import { approvalSignal, decideApprovalUpdate, statusQuery } from '../../src/contract/agent-run-api';

import { startDevServer } from '../../scripts/temporal-dev-server';
import { tempWorkspace, waitFor, withAgentWorker } from '../support/agent-run-harness';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { complete, endPreferences, parked, resultsIn, runWorker, shell, tallyAgent, tallyTool, write } from './approval-test-kit';

describe('approvals: remembered choices', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, tallyAgent], tools: [tallyTool] });
  const fake = bed.fake;
  const harness = bed.harness;

  it('remembers approve_always for what the person saw: a later write to that path runs without asking, another path asks', async () => {
    const task = uniqueId('always');
    const approver = uniqueId('alice');
    fake.script(task, [reply(write('a.txt', 'one')), reply(write('a.txt', 'two')), reply(write('b.txt')), complete()]);
    await withAgentWorker(harness(), async ({ start, client, workspace }) => {
      try {
        const handle = await start({ agent: 'general', task, user: approver });
        await parked(handle);
        await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve_always', approver });
        const again = await parked(handle);
        expect(again.pendingApprovals.map((p) => p.callId)).toEqual(['toolu_2_0']);
        expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('two');
        await handle.signal(approvalSignal, { callId: 'toolu_2_0', decision: 'approve', approver });
        expect((await handle.result()).status).toBe('completed');
        const status = await handle.query(statusQuery);
        expect(status.events.filter((e) => e.name === 'approvalRequested').map((e) => e.data.callId)).toEqual(['toolu_0_0', 'toolu_2_0']);
        expect(status.recentToolCalls.filter((c) => c.callId === 'toolu_1_0').map((c) => c.outcome)).toEqual(['success']);
        const saved = await client.workflow.getHandle(preferencesWorkflowId(approver)).query(preferencesQuery);
        expect(saved).toEqual([
          expect.objectContaining({ tool: 'write_file', preference: 'always', by: approver, fromWorkflowId: handle.workflowId, match: { kind: 'argument', name: 'path', value: 'a.txt', prefix: false } }),
        ]);
      } finally {
        await endPreferences(client, approver);
      }
    });
  });

  it('remembers a tool-wide "always" only when asked for one (scope: tool)', async () => {
    const task = uniqueId('always-tool');
    const approver = uniqueId('tia');
    fake.script(task, [reply(write('x.txt')), reply(write('y.txt')), complete()]);
    await withAgentWorker(harness(), async ({ start, client, workspace }) => {
      try {
        const handle = await start({ agent: 'general', task, user: approver });
        await parked(handle);
        await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve_always', approver, scope: 'tool' });
        expect((await handle.result()).status).toBe('completed');
        expect(existsSync(path.join(workspace, 'y.txt'))).toBe(true);
        const saved = await client.workflow.getHandle(preferencesWorkflowId(approver)).query(preferencesQuery);
        expect(saved).toEqual([expect.objectContaining({ tool: 'write_file', preference: 'always', match: { kind: 'tool' } })]);
      } finally {
        await endPreferences(client, approver);
      }
    });
  });

  it('lets one approve_always settle the other calls of that tool waiting in the same turn, but not other tools', async () => {
    const task = uniqueId('always-sweep');
    const approver = uniqueId('abe');
    fake.script(task, [reply(write('s.txt', '1'), shell('echo asks-still'), write('s.txt', '2')), complete()]);
    await withAgentWorker(harness(), async ({ start, client }) => {
      try {
        const handle = await start({ agent: 'general', task, user: approver });
        await parked(handle, 3);
        const outcome = await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'approve_always', approver }] });
        expect(outcome.message).toBe('approve_always applied to toolu_0_0 (and 1 other pending call(s) it covers)');
        expect((await handle.query(statusQuery)).pendingApprovals.map((p) => p.callId)).toEqual(['toolu_0_1']);
        await handle.signal(approvalSignal, { callId: 'toolu_0_1', decision: 'reject' });
        expect((await handle.result()).status).toBe('completed');
      } finally {
        await endPreferences(client, approver);
      }
    });
    expect(resultsIn(fake.requestsFor(task)[1]).map((r) => [r.tool_use_id, r.is_error ?? false])).toEqual([
      ['toolu_0_0', false],
      ['toolu_0_1', true],
      ['toolu_0_2', false],
    ]);
  });

  it('keeps an "always" made by another approver for the rest of the run, across continue-as-new', async () => {
    const task = uniqueId('always-can');
    const approver = uniqueId('gus');
    const look = reply(toolCall('list_files', {}));
    fake.script(task, [reply(write('same.txt', 'before')), look, look, look, look, look, look, look, look, reply(write('same.txt', 'after')), complete()]);
    let handleId = '';
    await withAgentWorker(harness(), async ({ start, client, workspace }) => {
      try {
        // The run's user is not the approver, so the choice is not in the store this run reloads.
        const handle = await start({ agent: 'general', task, user: uniqueId('someone-else'), historyBudget: { maxEvents: 50 } });
        handleId = handle.workflowId;
        await parked(handle);
        await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve_always', approver });
        const end = await waitFor(async () => {
          const s = await handle.query(statusQuery);
          return s.phase === 'completed' || s.phase === 'waiting_approval' ? s : undefined;
        }, 'the run to end or park again', 30_000);
        expect(end.pendingApprovals.map((p) => p.callId)).toEqual([]);
        expect(end.phase).toBe('completed');
        expect(end.continueAsNewLinks).toBeGreaterThan(0);
        expect(await readFile(path.join(workspace, 'same.txt'), 'utf8')).toBe('after');
      } finally {
        await client.workflow.getHandle(handleId).terminate('test cleanup').catch(() => undefined);
        await endPreferences(client, approver);
      }
    });
  });

  it('remembers reject_always: a later call of that command is refused by the policy without asking', async () => {
    const task = uniqueId('never');
    const approver = uniqueId('bob');
    fake.script(task, [reply(shell('echo one')), reply(shell('echo  one')), complete()]);
    await withAgentWorker(harness(), async ({ start, client }) => {
      try {
        const handle = await start({ agent: 'general', task, user: approver });
        await parked(handle);
        await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'reject_always', approver });
        expect((await handle.result()).status).toBe('completed');
        const status = await handle.query(statusQuery);
        expect(status.decisions).toEqual([
          expect.objectContaining({ callId: 'toolu_0_0', decision: 'reject_always', via: 'signal' }),
          expect.objectContaining({ callId: 'toolu_1_0', decision: 'policy_reject', reason: '"echo  one": you chose "never" for shell', via: 'policy' }),
        ]);
        expect(status.events.filter((e) => e.name === 'approvalRequested')).toHaveLength(1);
      } finally {
        await endPreferences(client, approver);
      }
    });
    const requests = fake.requestsFor(task);
    expect(resultsIn(requests[1])[0]).toMatchObject({ tool_use_id: 'toolu_0_0', is_error: true });
    expect(resultsIn(requests[2])[0]?.content).toContain('you chose "never" for shell');
  });

  it('applies a preference in a later run of the same user, also after the server restarted', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'prefs-db-'));
    const server = await startDevServer({ headless: true, dbFilename: path.join(dir, 't.db') });
    const user = uniqueId('carol');
    const taskQueue = uniqueId('q-prefs');
    const workspace = await tempWorkspace();
    const first = uniqueId('prefs-first');
    const second = uniqueId('prefs-second');
    fake.script(first, [reply(write('first.txt')), complete()]);
    fake.script(second, [reply(write('first.txt', 'second run')), complete()]);
    const opts = { taskQueue, workspace, address: server.address };
    try {
      await runWorker(bed, opts, async (client) => {
        const handle = await startRun(client, { agent: 'general', task: first, user }, { taskQueue, workflowId: uniqueId('run') });
        await parked(handle);
        // No approver: the choice is stored under the run's user.
        await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve_always' });
        expect((await handle.result()).status).toBe('completed');
        await waitFor(async () => {
          const saved = await client.workflow.getHandle(preferencesWorkflowId(user)).query(preferencesQuery);
          return saved.some((e) => e.tool === 'write_file' && e.preference === 'always') ? true : undefined;
        }, 'the saved preference');
      });
      await server.restart();
      await runWorker(bed, opts, async (client) => {
        const handle = await startRun(client, { agent: 'general', task: second, user }, { taskQueue, workflowId: uniqueId('run') });
        expect((await handle.result()).status).toBe('completed');
        const status = await handle.query(statusQuery);
        expect(status.events.filter((e) => e.name === 'approvalRequested')).toEqual([]);
        // Nobody was asked: the remembered choice decided, and the run says so (issue 34).
        expect(status.decisions).toEqual([expect.objectContaining({ decision: 'policy_allow', reason: expect.stringMatching(/^decided by a remembered choice: /) })]);
        expect(await client.workflow.getHandle(preferencesWorkflowId(user)).query(preferencesQuery)).toEqual([
          expect.objectContaining({ tool: 'write_file', preference: 'always', fromWorkflowId: expect.any(String) }),
        ]);
      });
      expect(await readFile(path.join(workspace, 'first.txt'), 'utf8')).toBe('second run');
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
