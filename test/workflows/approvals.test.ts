// Human in the loop against a real Temporal server: parking, the approval signal and update, always
// and never, timeouts, questions. The model is the scripted fake; everything else is real.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client, Connection, WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { useAgentTestbed } from '../support/agent-testbed';
import { z } from 'zod';
import { builtinAgents } from '../../src/agents/builtin-agents';
import type { AgentDefinitionInput } from '../../src/agents/agent-definition';
import { preferencesQuery, preferencesWorkflowId } from '../../src/approvals/preference-messages';
import type { ToolResultBlock } from '../../src/conversation/messages';
import { startRun } from '../../src/client/start-run';
import { defineTool } from '../../src/tools/tool-definition';
import { ToolResult } from '../../src/tools/tool-result';
import { createAgentWorker } from '../../src/worker-setup/create-agent-worker';
import type { agentRun } from '../../src/workflows/agent-run';
import { approvalSignal, decideApprovalUpdate, statusQuery, submitReplyUpdate, userReplySignal } from '../../src/workflows/definitions';
import type { AgentRunInput } from '../../src/workflows/run-input';
import type { RunStatus } from '../../src/workflows/run-machine/run-status';
import { startDevServer } from '../../scripts/temporal-dev-server';
import { tempWorkspace, waitFor, withAgentWorker } from '../support/agent-run-harness';
import { reply, text, toolCall, type FakeRequest } from '../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../support/temporal';

type RunHandle = WorkflowHandle<typeof agentRun>;

const complete = (summary = 'done') => reply(toolCall('complete_task', { summary, status: 'success' }));
const write = (file: string, content = 'hello') => toolCall('write_file', { path: file, content });
const shell = (command: string) => toolCall('shell', { command });

/** How often `tally` really ran, per key: the proof that a duplicate decision did not run it twice. */
const tallies = new Map<string, number>();
const tallyTool = defineTool({
  name: 'tally',
  description: 'Counts one use of a key (a write, so it needs approval).',
  scope: 'write',
  inputSchema: z.object({ key: z.string() }),
  async execute({ key }) {
    tallies.set(key, (tallies.get(key) ?? 0) + 1);
    return ToolResult.success(`tallied ${key}`);
  },
});
const tallyAgent: AgentDefinitionInput = {
  name: 'tallier',
  description: 'Counts things.',
  modelTier: 'fast',
  tools: ['tally'],
  systemPrompt: 'You count.',
  maxIterations: 10,
};

/** The tool results a request carries in its last message, in order. */
function resultsIn(request: FakeRequest | undefined): ToolResultBlock[] {
  const last = request?.body.messages.at(-1);
  expect(last?.role).toBe('user');
  expect(Array.isArray(last?.content)).toBe(true);
  return last!.content as unknown as ToolResultBlock[];
}

/** Waits until the run is parked on at least `count` calls and returns its status. */
function parked(handle: RunHandle, count = 1): Promise<RunStatus> {
  return waitFor(async () => {
    const status = await handle.query(statusQuery);
    return status.phase === 'waiting_approval' && status.pendingApprovals.length >= count ? status : undefined;
  }, `${handle.workflowId} to wait for ${count} approval(s)`);
}

/** The preferences workflows a test created outlive its worker; end them so no later run waits on them. */
async function endPreferences(client: Client, ...users: string[]) {
  for (const user of users) {
    await client.workflow.getHandle(preferencesWorkflowId(user)).terminate('test cleanup').catch(() => undefined);
  }
}

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

  it('treats an approval as rejected with reason "timed out" when nobody decides in time, and continues', async () => {
    const task = uniqueId('timeout');
    fake.script(task, [reply(write('late.txt')), complete('went on without it')]);
    await withAgentWorker(harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task, approvalTimeoutSeconds: 2 });
      await parked(handle);
      const result = await handle.result();
      expect(result.status).toBe('completed');
      expect(existsSync(path.join(workspace, 'late.txt'))).toBe(false);
      const status = await handle.query(statusQuery);
      expect(status.decisions).toEqual([expect.objectContaining({ callId: 'toolu_0_0', decision: 'timed_out', reason: 'timed out', via: 'timeout' })]);
      expect(status.events.filter((e) => e.name === 'approvalDecided').at(-1)?.data).toMatchObject({ decision: 'timed_out' });
    });
    const [result] = resultsIn(fake.requestsFor(task)[1]);
    expect(result).toMatchObject({ tool_use_id: 'toolu_0_0', is_error: true });
    expect(result?.content).toContain('timed out: no decision within 2s');
  });

  it('keeps an approval sent while no worker runs, and finishes once a worker starts', async () => {
    const task = uniqueId('offline');
    fake.script(task, [reply(write('offline.txt', 'later')), complete()]);
    const taskQueue = uniqueId('q-offline');
    const workspace = await tempWorkspace();
    const input: AgentRunInput = { agent: 'general', task };
    const handle = await runWorker({ taskQueue, workspace }, async (client) => {
      const h = await startRun(client, input, { taskQueue, workflowId: uniqueId('run') });
      await parked(h);
      return h;
    });
    // The worker is gone: the signal is stored by the server alone.
    const connection = await Connection.connect({ address: temporalAddress() });
    try {
      const client = new Client({ connection });
      const offline = client.workflow.getHandle<typeof agentRun>(handle.workflowId);
      await offline.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve', approver: 'night-shift' });
      const events = (await offline.fetchHistory()).events ?? [];
      expect(events.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'approval')).toHaveLength(1);
      // Nothing has processed it yet: the last completed workflow task predates the signal.
      expect(events.at(-1)?.workflowTaskScheduledEventAttributes).toBeTruthy();
      expect((await offline.describe()).status.name).toBe('RUNNING');

      const result = await runWorker({ taskQueue, workspace }, () => offline.result());
      expect(result.status).toBe('completed');
      expect(await readFile(path.join(workspace, 'offline.txt'), 'utf8')).toBe('later');
    } finally {
      await connection.close();
    }
  });

  it('delivers a userReply signal as the need_more_information result, and ignores a second one', async () => {
    const task = uniqueId('question-signal');
    fake.script(task, [reply(toolCall('need_more_information', { question: 'Which file?', context: 'There are two.' })), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      const status = await waitFor(async () => {
        const s = await handle.query(statusQuery);
        return s.phase === 'waiting_input' ? s : undefined;
      }, 'the question');
      expect(status.pendingQuestion).toMatchObject({ callId: 'toolu_0_0', question: 'Which file?', context: 'There are two.' });
      await handle.signal(userReplySignal, { text: 'notes.md, please' });
      await handle.signal(userReplySignal, { text: 'a second answer nobody asked for' });
      expect((await handle.result()).status).toBe('completed');
      const after = await handle.query(statusQuery);
      expect(after.pendingQuestion).toBeUndefined();
      expect(after.ignored).toEqual([expect.objectContaining({ kind: 'userReply', reason: 'no question is waiting for a reply' })]);
    });
    const [answer] = resultsIn(fake.requestsFor(task)[1]);
    expect(answer).toEqual({ type: 'tool_result', tool_use_id: 'toolu_0_0', content: 'The user replied: notes.md, please' });
  });

  it('delivers a submitReply update as the result and refuses one when no question waits', async () => {
    const task = uniqueId('question-update');
    // The model's next answer is held until the second reply was refused, so that reply surely meets
    // a running run without a question (not a finished one).
    let release!: () => void;
    const refused = new Promise<void>((resolve) => (release = resolve));
    fake.script(task, [reply(toolCall('need_more_information', { question: 'Proceed?' })), complete().until(refused)]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      await waitFor(async () => ((await handle.query(statusQuery)).phase === 'waiting_input' ? true : undefined), 'the question');
      const outcome = await handle.executeUpdate(submitReplyUpdate, { args: [{ text: 'yes, go ahead' }] });
      expect(outcome).toEqual({ applied: true, message: 'reply delivered to the agent' });
      const again = await handle.executeUpdate(submitReplyUpdate, { args: [{ text: 'again' }] }).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((again as WorkflowUpdateFailedError).cause?.message).toBe('No question is waiting for a reply');
      release();
      expect((await handle.result()).status).toBe('completed');
    });
    const [answer] = resultsIn(fake.requestsFor(task)[1]);
    expect(answer?.content).toBe('The user replied: yes, go ahead');
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
      await runWorker(opts, async (client) => {
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
      await runWorker(opts, async (client) => {
        const handle = await startRun(client, { agent: 'general', task: second, user }, { taskQueue, workflowId: uniqueId('run') });
        expect((await handle.result()).status).toBe('completed');
        const status = await handle.query(statusQuery);
        expect(status.events.filter((e) => e.name === 'approvalRequested')).toEqual([]);
        expect(status.decisions).toEqual([]);
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

  /** A worker on a chosen task queue (and server), for tests where two workers must serve one run. */
  async function runWorker<T>(opts: { taskQueue: string; workspace: string; address?: string }, body: (client: Client) => Promise<T>): Promise<T> {
    const agentWorker = await createAgentWorker({
      address: opts.address ?? temporalAddress(),
      taskQueue: opts.taskQueue,
      workspaceRoot: opts.workspace,
      env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.baseUrl },
      workflowBundle: bed.harness().workflowBundle,
    });
    try {
      return await agentWorker.worker.runUntil(body(agentWorker.client));
    } finally {
      await agentWorker.close();
    }
  }
});
