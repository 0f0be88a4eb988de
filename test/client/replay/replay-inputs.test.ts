// Issue 35: the runs a replay takes as they are (a parked run, one that asked a question), and the
// input it refuses before anything starts: a recorded model with no price, and bodies a replay needs
// that are gone (a tool's image for a live shadow; messages a conversation store kept).
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { submitReplyUpdate } from '../../../src/contract/agent-run-api';
import { ToolResult } from '../../../src/contract/tool-result';
import { exportRecordedRun } from '../../../src/client/replay/recorded-run-file';
import { assembleRecordedRun } from '../../../src/client/replay/recorded-run';
import { ModelNotPricedError, StoredBodiesMissingError } from '../../../src/client/replay/replay-errors';
import { preflight } from '../../../src/client/replay/replay-run';
import { chainOf } from '../../../src/client/fork-point';
import { builtinAgents } from '../../../src/runtime/agents/builtin-agents';
import { defineTool, type Tool } from '../../../src/runtime/tools/tool-definition';
import { waitFor, waitForApprovals, waitForPhase, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { fail, reply, text, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';
import { openTestLab } from './replay-support';

const bed = useAgentTestbed();
const fake = bed.fake;
const complete = (summary = 'done') => reply(toolCall('complete_task', { summary, status: 'success' }));
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('what a replay takes', () => {
  it('replays a parked run up to the call it waits on, and leaves the original parked and unchanged', async () => {
    const task = uniqueId('replay-parked');
    fake.script(task, [reply(toolCall('list_files', { path: '.' })), reply(toolCall('write_file', { path: 'a.md', content: 'a' })), complete()]);
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      const run = await start({ agent: 'general', task });
      await waitForApprovals(run);
      const events = (await run.fetchHistory()).events?.length;
      const lab = await openTestLab(client, fake);
      try {
        const report = await lab.replay(run.workflowId);
        expect(report.diverged).toBe(false);
        expect(report.completion).toEqual({ recorded: { outcome: 'parked' }, shadow: { outcome: 'parked', reason: expect.stringContaining('on which the recorded run waits for a person') } });
        expect(report.modelCalls).toEqual({ recorded: 2, replayed: 2, live: 0 });
      } finally {
        await lab.close();
      }
      expect((await run.fetchHistory()).events?.length).toBe(events);
      expect((await waitForPhase(run, 'waiting_approval')).pendingApprovals).toHaveLength(1);
    });
  });

  it('ends where the record ends: a run terminated or cancelled from outside, and one a refused model request failed', async () => {
    const cut = uniqueId('replay-terminated');
    const called = uniqueId('replay-cancelled');
    const refused = uniqueId('replay-refused');
    for (const task of [cut, called]) fake.script(task, [reply(toolCall('list_files', { path: '.' })), reply(text('never sent')).until(new Promise(() => undefined))]);
    fake.script(refused, [reply(toolCall('list_files', { path: '.' })), fail(400)]);
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      const terminated = await start({ agent: 'general', task: cut });
      const cancelled = await start({ agent: 'general', task: called });
      await waitFor(async () => (fake.requestsFor(cut).length === 2 && fake.requestsFor(called).length === 2 ? true : undefined), 'the second model requests');
      await terminated.terminate('stopped by a person');
      await cancelled.cancel();
      await cancelled.result().catch(() => undefined);
      const failed = await start({ agent: 'general', task: refused });
      await failed.result().catch(() => undefined);
      const requests = fake.requests.length;
      const lab = await openTestLab(client, fake);
      try {
        const first = await lab.replay(terminated.workflowId);
        expect(first.firstDivergence).toBeNull();
        expect(first.completion).toMatchObject({ recorded: { outcome: 'terminated' }, shadow: { outcome: 'terminated' } });
        const stopped = await lab.replay(cancelled.workflowId);
        expect(stopped.firstDivergence).toBeNull();
        expect(stopped.completion).toMatchObject({ recorded: { outcome: 'cancelled' }, shadow: { outcome: 'cancelled' } });
        const second = await lab.replay(failed.workflowId);
        expect(second.firstDivergence).toBeNull();
        expect(second.completion).toMatchObject({ recorded: { outcome: 'failed' }, shadow: { outcome: 'failed', reason: expect.stringContaining('400') } });
        expect(fake.requests.length).toBe(requests);
      } finally {
        await lab.close();
      }
    });
  });

  it('replays a run across its continue-as-new links', async () => {
    const task = uniqueId('replay-chain');
    fake.script(task, [...Array.from({ length: 8 }, (_, i) => reply(toolCall('list_files', { path: `dir-${i}` }))), complete('chain done')]);
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      const run = await start({ agent: 'general', task, historyBudget: { maxEvents: 50 } });
      await run.result();
      const links = (await chainOf(client, run.workflowId)).length;
      expect(links).toBeGreaterThan(1);
      const lab = await openTestLab(client, fake);
      try {
        const report = await lab.replay(run.workflowId);
        expect(report.firstDivergence).toBeNull();
        expect(report.modelCalls).toEqual({ recorded: 9, replayed: 9, live: 0 });
        expect(report.completion.shadow).toMatchObject({ outcome: 'completed', summary: 'chain done' });
      } finally {
        await lab.close();
      }
    });
  });

  it('answers the question the shadow asks with the reply the recorded run got', async () => {
    const task = uniqueId('replay-question');
    fake.script(task, [reply(toolCall('need_more_information', { question: 'Which folder?' })), reply(toolCall('list_files', { path: 'docs' })), complete('listed docs')]);
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      const run = await start({ agent: 'general', task });
      const asked = await waitForPhase(run, 'waiting_input');
      await run.executeUpdate(submitReplyUpdate, { args: [{ text: 'the docs folder', callId: asked.pendingQuestions[0]!.callId, sender: 'ana' }] });
      await run.result();
      const lab = await openTestLab(client, fake);
      try {
        const report = await lab.replay(run.workflowId);
        expect(report.diverged).toBe(false);
        expect(report.completion.shadow).toMatchObject({ outcome: 'completed', summary: 'listed docs' });
      } finally {
        await lab.close();
      }
    });
  });

  it('refuses a recorded model with no price, and replays it without a cost', async () => {
    const task = uniqueId('replay-unpriced');
    fake.script(task, [complete()]);
    await withAgentWorker(bed.harness(), async ({ start, client }) => {
      const run = await start({ agent: 'general', task, model: 'claude-homegrown-1' });
      await run.result();
      const priced = await openTestLab(client, fake);
      try {
        const refused = await priced.replay(run.workflowId).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(ModelNotPricedError);
        expect((refused as Error).message).toMatch(/^No price is known for model claude-homegrown-1 \(the recorded run .*'s\), so the replay's cost cannot be given and nothing was replayed\. Add it to the JSON file AGENT_MODEL_PRICES_FILE names/);
      } finally {
        await priced.close();
      }
      const free = await openTestLab(client, fake, { prices: null });
      try {
        const report = await free.replay(run.workflowId);
        expect(report.diverged).toBe(false);
        expect(report.cost).toEqual({ recordedUsd: null, shadowUsd: null });
      } finally {
        await free.close();
      }
    });
  });

  it("refuses a live replay of a run whose tool images are gone, naming the call and where it looked; an offline one needs them not", async () => {
    const task = uniqueId('replay-attached');
    const capture = defineTool({ name: 'capture', description: 'Takes a screenshot.', scope: 'read', inputSchema: z.object({}), execute: async () => ({ ...ToolResult.success('captured'), content: [{ type: 'image', mediaType: 'image/png', data: PNG }] }) });
    const agents = [{ ...builtinAgents[0]!, tools: ['capture'] }];
    fake.script(task, [reply(toolCall('capture', {}, 'shot')), reply(text('Seen.')), complete('seen')]);
    await withAgentWorker({ ...bed.harness(), agents, tools: [capture as Tool] }, async ({ start, client }) => {
      const run = await start({ agent: 'general', task });
      await run.result();
      const offline = await openTestLab(client, fake, { agents, tools: [capture as Tool] });
      try {
        expect((await offline.replay(run.workflowId)).diverged).toBe(false);
      } finally {
        await offline.close();
      }
      const live = await openTestLab(client, fake, { agents, tools: [capture as Tool], liveModel: true });
      try {
        const refused = await live.replay(run.workflowId).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(StoredBodiesMissingError);
        expect((refused as Error).message).toContain(`Run ${run.workflowId} cannot be replayed with --live-model: the images or documents its tool call(s) shot returned are kept only in a conversation store`);
        expect((refused as Error).message).toContain('were looked for in no conversation store');
      } finally {
        await live.close();
      }
      const exported = await exportRecordedRun(client, run.workflowId);
      expect(exported.bodies.missing).toEqual(['the attachments of tool call shot, looked for in no conversation store']);
    });
  });

  it('refuses a run whose prompt starts from stored messages that are gone, naming the key and where it looked', async () => {
    const callModel = (baseCount: number, tag: string) => ({
      kind: 'activity' as const,
      activity: 'callModel',
      local: false,
      input: { agent: 'general', iteration: 1, conversation: { key: 'run-x/gen-1', owner: 'run-x', baseCount, tag, append: [{ role: 'user', content: 'go on' }] } },
      result: { message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, stopReason: 'end_turn', model: 'claude-sonnet-5-5', usage: { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 }, storedCount: 3, storedTag: 'next' },
    });
    const lookedUp: unknown[] = [];
    const recorded = await assembleRecordedRun('run-x', [{ runId: 'r1', entries: [{ kind: 'start', input: { agent: 'general', task: 't' } }, callModel(2, 'elsewhere')], events: [] }], 'completed', async (prefix) => void lookedUp.push(prefix));
    expect(lookedUp).toEqual([{ key: 'run-x/gen-1', owner: 'run-x', tag: 'elsewhere', baseCount: 2 }]);
    const refused = (() => {
      try {
        preflight(recorded, { registry: { agents: new Map() } as never, modelTiers: {} as never }, { prices: null, bodies: { description: 'AGENT_CONVERSATION_STORE=dir:/srv/conversations', conversation: async () => undefined, attachments: async () => undefined } });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(StoredBodiesMissingError);
    expect((refused as Error).message).toBe(
      'Run run-x cannot be replayed: the prompt of its model request 1 (iteration 1) starts from 2 message(s) its history does not carry, kept in a conversation store under key run-x/gen-1 (tag elsewhere). They were looked for in AGENT_CONVERSATION_STORE=dir:/srv/conversations and are gone (a closed run\'s stored conversation is deleted with it). 1 request(s) lack their stored part.',
    );
  });
});
