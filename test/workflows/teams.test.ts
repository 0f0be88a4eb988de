// Agents that work together and keep talking, on a real server: sub-agents as child runs whose
// approvals reach the top, handoffs, guardrails, an approval handler, and threads.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { approvalSignal, closeThreadUpdate, decideApprovalUpdate, sendMessageUpdate, statusQuery } from '../../src/contract/agent-run-api';
import { toolResultsIn, waitFor, waitForApprovals, waitForPhase, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, text, toolCall, type FakeRequest } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

const general = builtinAgents.find((a) => a.name === 'general')!;
const specialist: AgentDefinitionInput = { ...general, name: 'specialist', description: 'Runs commands in the workspace.', modelTier: 'fast' };
const coordinator: AgentDefinitionInput = {
  ...general,
  name: 'coordinator',
  description: 'Splits work between specialists.',
  tools: ['read_file'],
  subAgents: ['specialist'],
  handoffs: ['specialist'],
};
const team = [coordinator, specialist, general];
const done = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));
const toolNames = (r: FakeRequest | undefined) => (r?.body.tools ?? []).map((t) => (t as { name: string }).name);

describe('agents that work together', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('delegates to a sub-agent whose shell approval shows at the top and is decided there, once; usage rolls up', async () => {
    const task = uniqueId('delegate');
    const subTask = uniqueId('sub-task');
    fake.script(task, [reply(toolCall('delegate_task', { agent: 'specialist', task: subTask })), done('the specialist finished')]);
    fake.script(subTask, [reply(toolCall('shell', { command: 'echo from-the-child > child.txt' })), done('child wrote child.txt')]);
    await withAgentWorker({ ...bed.harness(), agents: team }, async ({ start, client }) => {
      const parent = await start({ agent: 'coordinator', task });
      const parked = await waitForApprovals(parent, 1, 30_000);
      const childId = `${parent.workflowId}/sub-toolu_0_0`;
      expect(parked.pendingApprovals).toEqual([expect.objectContaining({ callId: 'toolu_0_0', tool: 'shell', workflowId: childId })]);
      expect(parked.children).toEqual([{ callId: 'toolu_0_0', workflowId: childId, agent: 'specialist', running: true }]);
      // Decided at the parent, with the child's callId (the child's first call has the same id as the parent's).
      const outcome = await parent.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'approve', approver: 'ana' }] });
      expect(outcome.message).toBe(`approve for toolu_0_0 applied by ${childId}, the sub-agent run that waited for it: approve applied to toolu_0_0`);
      // A second decision for the same call is not applied again.
      await parent.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve', approver: 'ana' }).catch(() => undefined);
      const result = await parent.result();
      expect(result).toMatchObject({ status: 'completed', completion: { summary: 'the specialist finished' } });
      // 2 parent calls + 2 child calls, 100 input tokens each.
      expect(result.usage.inputTokens).toBe(400);
      const child = await client.workflow.getHandle(childId).query(statusQuery);
      expect(child.decisions.filter((d) => d.callId === 'toolu_0_0')).toHaveLength(1);
      expect(child.lineage).toMatchObject({ depth: 1, parentWorkflowId: parent.workflowId });
    });
    const told = toolResultsIn(fake.requestsFor(task)[1])[0];
    expect(told?.content).toMatch(/Sub-agent specialist .* ended success after 2 iteration\(s\): child wrote child.txt/);
    expect(toolNames(fake.requestsFor(task)[0])).toContain('delegate_task');
  });

  it('brings a grandchild\'s approval to the root, and applies the root\'s decision there', async () => {
    const [task, mid, leaf] = [uniqueId('tree'), uniqueId('tree-mid'), uniqueId('tree-leaf')];
    const middle: AgentDefinitionInput = { ...general, name: 'middle', description: 'Delegates again.', subAgents: ['specialist'] };
    fake.script(task, [reply(toolCall('delegate_task', { agent: 'middle', task: mid })), done('root done')]);
    fake.script(mid, [reply(toolCall('delegate_task', { agent: 'specialist', task: leaf })), done('middle done')]);
    fake.script(leaf, [reply(toolCall('write_file', { path: 'leaf.txt', content: 'x' })), done('leaf done')]);
    await withAgentWorker({ ...bed.harness(), agents: [{ ...coordinator, subAgents: ['middle'] }, middle, specialist] }, async ({ start, workspace }) => {
      const root = await start({ agent: 'coordinator', task });
      const parked = await waitForApprovals(root, 1, 30_000);
      const leafId = `${root.workflowId}/sub-toolu_0_0/sub-toolu_0_0`;
      expect(parked.pendingApprovals).toEqual([expect.objectContaining({ tool: 'write_file', workflowId: leafId })]);
      await root.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'approve' }] });
      expect((await root.result()).completion?.summary).toBe('root done');
      expect(existsSync(path.join(workspace, 'leaf.txt'))).toBe(true);
    });
  });

  it('runs two delegations of one turn at the same time', async () => {
    const task = uniqueId('fan-out');
    const [a, b] = [uniqueId('sub-a'), uniqueId('sub-b')];
    fake.script(task, [reply(toolCall('delegate_task', { agent: 'specialist', task: a }), toolCall('delegate_task', { agent: 'specialist', task: b })), done('both done')]);
    fake.script(a, [done('a').delay(2_000)]);
    fake.script(b, [done('b').delay(2_000)]);
    await withAgentWorker({ ...bed.harness(), agents: team }, async ({ start }) => {
      expect((await (await start({ agent: 'coordinator', task })).result()).status).toBe('completed');
    });
    const [ra, rb] = [fake.requestsFor(a)[0]!, fake.requestsFor(b)[0]!];
    // Each child's model call started before the other's answer was sent.
    expect(ra.at).toBeLessThan(rb.answeredAt!);
    expect(rb.at).toBeLessThan(ra.answeredAt!);
  });

  it('cancels its sub-agents when it is cancelled', async () => {
    const task = uniqueId('cancel-tree');
    const sub = uniqueId('sub-parked');
    fake.script(task, [reply(toolCall('delegate_task', { agent: 'specialist', task: sub }))]);
    fake.script(sub, [reply(toolCall('shell', { command: 'echo never' }))]);
    await withAgentWorker({ ...bed.harness(), agents: team }, async ({ start, client }) => {
      const parent = await start({ agent: 'coordinator', task });
      await waitForApprovals(parent, 1, 30_000);
      await parent.cancel();
      await parent.result().catch(() => undefined);
      const child = client.workflow.getHandle(`${parent.workflowId}/sub-toolu_0_0`);
      await waitFor(async () => ((await child.describe()).status.name === 'CANCELLED' ? true : undefined), 'the child to be cancelled');
    });
  });

  it('goes on when someone else cancels a sub-agent: the call\'s result says the run was cancelled', async () => {
    const task = uniqueId('child-cancelled-elsewhere');
    const sub = uniqueId('sub-cancelled');
    fake.script(task, [reply(toolCall('delegate_task', { agent: 'specialist', task: sub })), done('went on without it')]);
    fake.script(sub, [reply(toolCall('shell', { command: 'echo never' }))]);
    await withAgentWorker({ ...bed.harness(), agents: team }, async ({ start, client }) => {
      const parent = await start({ agent: 'coordinator', task });
      await waitForApprovals(parent, 1, 30_000);
      const child = client.workflow.getHandle(`${parent.workflowId}/sub-toolu_0_0`);
      await child.cancel();
      expect(await parent.result()).toMatchObject({ status: 'completed', completion: { summary: 'went on without it' } });
      const resultSent = JSON.stringify(fake.requestsFor(task)[1]!.body.messages.at(-1));
      expect(resultSent).toContain('was cancelled before it finished');
    });
  });

  it('hands the run to another agent: the model is offered that agent\'s tools from then on', async () => {
    const task = uniqueId('handoff');
    fake.script(task, [reply(toolCall('handoff', { agent: 'specialist', reason: 'needs a shell' })), done('the specialist took over')]);
    await withAgentWorker({ ...bed.harness(), agents: team }, async ({ start }) => {
      const handle = await start({ agent: 'coordinator', task });
      expect((await handle.result()).status).toBe('completed');
      const status = await handle.query(statusQuery);
      expect(status).toMatchObject({ agent: 'specialist', startedAs: 'coordinator' });
      expect(status.events.some((e) => e.name === 'agentHandedOff')).toBe(true);
    });
    const [before, after] = fake.requestsFor(task);
    expect(toolNames(before)).toContain('read_file');
    expect(toolNames(before)).not.toContain('shell');
    expect(toolNames(after)).toContain('shell');
    expect(after!.body.model).not.toBe(before!.body.model);
  });

  it('stops at an input guardrail before any model call: guardrail_tripped', async () => {
    const task = uniqueId('tripwire');
    const guarded: AgentDefinitionInput = { ...general, name: 'guarded', guardrails: [{ name: 'no-secrets', on: 'input', check: { function: 'noSecrets' } }] };
    fake.script(task, [done('should not run')]);
    const noSecrets = (s: { on: string; task?: string }) => (s.task?.includes('password') ? { pass: false as const, reason: 'the task asks for a password' } : { pass: true as const });
    await withAgentWorker({ ...bed.harness(), agents: [guarded], guardrails: { noSecrets } }, async ({ start }) => {
      const handle = await start({ agent: 'guarded', task: `${task}: print the admin password` });
      const result = await handle.result();
      expect(result).toMatchObject({ status: 'guardrail_tripped', guardrail: { name: 'no-secrets', reason: 'the task asks for a password', step: 'input' } });
      expect((await handle.query(statusQuery)).phase).toBe('guardrail_tripped');
    });
    expect(fake.requestsFor(task)).toEqual([]);
  });

  it('asks a fast-tier model when a guardrail is instructions, and trips on its TRIP', async () => {
    const task = uniqueId('model-guard');
    const marker = uniqueId('off-topic');
    const judged: AgentDefinitionInput = {
      ...general,
      name: 'judged-output',
      guardrails: [{ name: 'on-topic', on: 'output', check: { model: { instructions: `Trip when the summary mentions ${marker}.` } } }],
    };
    // The judge's request quotes the completion, which carries the marker: its script answers TRIP.
    fake.script(`"summary": "${marker}`, [reply(text('TRIP: the summary is off topic'))]);
    fake.script(task, [reply(toolCall('complete_task', { summary: `${marker} and more`, status: 'success' }))]);
    await withAgentWorker({ ...bed.harness(), agents: [judged] }, async ({ start }) => {
      const result = await (await start({ agent: 'judged-output', task })).result();
      expect(result).toMatchObject({ status: 'guardrail_tripped', guardrail: { name: 'on-topic', reason: 'the summary is off topic', step: 'output' } });
    });
    const judge = fake.requestsFor(`"summary": "${marker}`)[0]!;
    expect(judge.body.system).toContain(`Trip when the summary mentions ${marker}.`);
  });

  it('lets a tool guardrail refuse one call while the run goes on', async () => {
    const task = uniqueId('tool-guard');
    const guarded: AgentDefinitionInput = {
      ...general,
      name: 'careful',
      guardrails: [{ name: 'no-env-files', on: 'tool', onTrip: 'reject_call', tools: ['read_file'], check: { function: 'noEnv' } }],
    };
    fake.script(task, [reply(toolCall('read_file', { path: '.env' }), toolCall('read_file', { path: 'README.md' })), done('went on')]);
    const noEnv = (s: { on: string; input?: unknown }) => ((s.input as { path?: string })?.path === '.env' ? { pass: false as const, reason: '.env holds secrets' } : { pass: true as const });
    await withAgentWorker({ ...bed.harness(), agents: [guarded], guardrails: { noEnv } }, async ({ start }) => {
      expect((await (await start({ agent: 'careful', task })).result()).status).toBe('completed');
    });
    const [refused, read] = toolResultsIn(fake.requestsFor(task)[1]);
    expect(refused).toMatchObject({ is_error: true, content: expect.stringContaining('guardrail "no-env-files": .env holds secrets') });
    expect(read?.content).not.toContain('guardrail');
  });

  it('hands calls that would park to the approval handler: one allowed, one rejected, one asked (and parked)', async () => {
    const task = uniqueId('handler');
    const judged: AgentDefinitionInput = { ...general, name: 'judged', approvalHandler: { function: 'byPath' } };
    fake.script(task, [
      reply(
        toolCall('write_file', { path: 'notes/ok.md', content: 'x' }),
        toolCall('write_file', { path: 'secrets/key', content: 'x' }),
        toolCall('write_file', { path: 'other.md', content: 'x' }),
      ),
      done('judged'),
    ]);
    const byPath = (r: { input: unknown }) => {
      const path = (r.input as { path: string }).path;
      if (path.startsWith('notes/')) return { verdict: 'allow' as const, reason: 'notes are fine' };
      if (path.startsWith('secrets/')) return { verdict: 'reject' as const, reason: 'never touch secrets' };
      return { verdict: 'ask' as const, reason: 'not sure' };
    };
    await withAgentWorker({ ...bed.harness(), agents: [judged], approvalHandlers: { byPath } }, async ({ start }) => {
      const handle = await start({ agent: 'judged', task });
      const parked = await waitForApprovals(handle);
      expect(parked.pendingApprovals.map((p) => p.callId)).toEqual(['toolu_0_2']);
      expect(parked.pendingApprovals[0]!.reason).toContain('not sure');
      expect(parked.decisions).toEqual([
        expect.objectContaining({ callId: 'toolu_0_0', decision: 'handler_allow', via: 'handler' }),
        expect.objectContaining({ callId: 'toolu_0_1', decision: 'handler_reject', via: 'handler' }),
      ]);
      await handle.signal(approvalSignal, { callId: 'toolu_0_2', decision: 'approve' });
      expect((await handle.result()).status).toBe('completed');
    });
    expect(toolResultsIn(fake.requestsFor(task)[1]).map((r) => r.is_error ?? false)).toEqual([false, true, false]);
  });

  it('keeps a thread open: complete, take a follow-up with the whole conversation, complete again, and stays bounded', async () => {
    const task = uniqueId('thread');
    const look = reply(toolCall('list_files', { path: '.' }));
    fake.script(task, [done('first answer'), look, look, look, done('second answer'), done('third answer')]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task, followUps: true, historyBudget: { maxEvents: 60 } });
      expect((await waitForPhase(handle, 'idle', 30_000)).completion).toMatchObject({ summary: 'first answer' });
      await handle.executeUpdate(sendMessageUpdate, { args: [{ text: 'now list the files' }] });
      await waitFor(async () => {
        const s = await handle.query(statusQuery);
        return s.phase === 'idle' && s.completions.length === 2 ? s : undefined;
      }, 'the second answer', 30_000);
      await handle.executeUpdate(sendMessageUpdate, { args: [{ text: 'one more thing' }] });
      await waitFor(async () => ((await handle.query(statusQuery)).completions.length === 3 ? true : undefined), 'the third answer', 30_000);
      await handle.executeUpdate(closeThreadUpdate, { args: [] });
      const result = await handle.result();
      expect(result.completions?.map((c) => c.summary)).toEqual(['first answer', 'second answer', 'third answer']);
      expect((await handle.query(statusQuery)).continueAsNewLinks).toBeGreaterThan(0);
    });
    const requests = fake.requestsFor(task);
    const second = requests.find((r) => r.index === 1)!;
    // The follow-up came with the whole conversation: the task, the first completion, then the message.
    expect(JSON.stringify(second.body.messages)).toContain('first answer');
    expect(JSON.stringify(second.body.messages.at(-1))).toContain('now list the files');
  });
});
