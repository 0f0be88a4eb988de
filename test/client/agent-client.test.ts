// The typed client against the real server: one AgentRunHandle for the rest of a run's life.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentClient } from '../../src/client/agent-client';
import { createApproverKey } from '../../src/client/approver-keys';
import { DecisionRefusedError, RunDidNotCompleteError, RunNotResumableError, RunWaitTimeoutError } from '../../src/client/errors';
import type { RunEvent } from '../../src/client/run-events';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, text, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

const write = (file: string) => reply(text('Writing it.'), toolCall('write_file', { path: file, content: 'x' }));
const done = (summary = 'done') => reply(toolCall('complete_task', { summary, status: 'success' }));

describe('AgentClient and AgentRunHandle', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('follows a run: its events, the approval it waits for, the approval decided, then the result', async () => {
    const task = uniqueId('follow');
    fake.script(task, [write('a.txt'), done('wrote a.txt')]);
    await withAgentWorker(bed.harness(), async ({ client, taskQueue }) => {
      const agents = new AgentClient({ client, taskQueue });
      const run = await agents.start({ agent: 'general', task });
      const events: RunEvent[] = [];
      for await (const event of run.events({ pollMs: 100 })) {
        events.push(event);
        if (event.type === 'approval') {
          expect(event.pending).toMatchObject({ tool: 'write_file', input: { path: 'a.txt', content: 'x' } });
          await expect(run.approve({ approver: 'ana', reason: 'fine' })).resolves.toMatchObject({ applied: true });
        }
      }
      const names = events.flatMap((e) => (e.type === 'lifecycle' ? [e.event.name] : []));
      expect(names).toEqual(expect.arrayContaining(['agentStarted', 'approvalRequested', 'approvalDecided', 'toolEnded', 'agentEnded']));
      expect(names.indexOf('approvalDecided')).toBeLessThan(names.indexOf('agentEnded'));
      expect(events.filter((e) => e.type === 'approval')).toHaveLength(1);
      const last = events.at(-1)!;
      expect(last.type).toBe('ended');
      expect(last.type === 'ended' && last.outcome.kind).toBe('completed');
      expect(await run.result()).toMatchObject({ status: 'completed', completion: { summary: 'wrote a.txt' } });
      const status = await agents.attach(run.workflowId).status();
      expect(status.decisions).toEqual([expect.objectContaining({ callId: 'toolu_0_0', decision: 'approve', approver: 'ana', reason: 'fine' })]);
    });
  });

  it('rejects a call with a reason, answers a question, and refuses a second decision for a decided call', async () => {
    const task = uniqueId('reject');
    fake.script(task, [
      write('b.txt'),
      reply(toolCall('need_more_information', { question: 'Which file then?' })),
      done('asked and answered'),
    ]);
    await withAgentWorker(bed.harness(), async ({ client, taskQueue }) => {
      const run = await new AgentClient({ client, taskQueue }).start({ agent: 'general', task });
      const [pending] = await run.waitForApprovals();
      await run.reject({ callId: pending!.callId, reason: 'not that one' });
      await expect(run.reject({ callId: pending!.callId })).rejects.toThrow(DecisionRefusedError);
      const question = await run.waitForQuestion();
      expect(question.question).toBe('Which file then?');
      await expect(run.reply('c.txt')).resolves.toMatchObject({ applied: true });
      expect((await run.result()).completion?.summary).toBe('asked and answered');
      const results = fake.requestsFor(task).map((r) => JSON.stringify(r.body.messages.at(-1)));
      expect(results[1]).toContain('not that one');
      expect(results[2]).toContain('c.txt');
    });
  });

  it('signs a decision with the approver\'s key when the worker requires signatures', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'client-keys-'));
    const previous = process.env.AGENT_KEYS_DIR;
    process.env.AGENT_KEYS_DIR = path.join(dir, 'keys');
    try {
      const ana = createApproverKey('ana');
      const registry = path.join(dir, 'approvers.json');
      await writeFile(registry, JSON.stringify(ana.registryEntry));
      const task = uniqueId('signed');
      fake.script(task, [write('s.txt'), done('signed')]);
      await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registry } }, async ({ client, taskQueue }) => {
        const run = await new AgentClient({ client, taskQueue }).start({ agent: 'general', task });
        await run.waitForApprovals();
        // Unsigned (no key for "bob"): the registry refuses it and the call stays parked.
        await expect(run.approve({ approver: 'bob' })).rejects.toThrow(DecisionRefusedError);
        await expect(run.approve({ approver: 'ana' })).resolves.toMatchObject({ applied: true });
        expect((await run.result()).completion?.summary).toBe('signed');
        expect((await run.status()).decisions[0]).toMatchObject({ approver: 'ana', verified: true });
      });
    } finally {
      if (previous === undefined) delete process.env.AGENT_KEYS_DIR;
      else process.env.AGENT_KEYS_DIR = previous;
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('cancels a run: outcome() says cancelled and result() throws RunDidNotCompleteError', async () => {
    const task = uniqueId('cancel');
    fake.script(task, [write('c.txt'), done()]);
    await withAgentWorker(bed.harness(), async ({ client, taskQueue }) => {
      const run = await new AgentClient({ client, taskQueue }).start({ agent: 'general', task });
      await run.waitForApprovals();
      await run.cancel();
      expect(await run.outcome()).toEqual({ kind: 'cancelled', workflowId: run.workflowId });
      await expect(run.result()).rejects.toThrow(RunDidNotCompleteError);
      await expect(run.result()).rejects.toThrow(/did not complete; it ended cancelled/);
      await expect(run.waitForApprovals({ timeoutMs: 2_000 })).rejects.toThrow(RunWaitTimeoutError);
    });
  });

  it('resumes a run that hit its iteration cap, and refuses to resume one that succeeded', async () => {
    const task = uniqueId('resume');
    fake.script(task, [reply(toolCall('list_files', { path: '.' })), done('finished after resume')]);
    await withAgentWorker(bed.harness(), async ({ client, taskQueue }) => {
      const agents = new AgentClient({ client, taskQueue });
      const run = await agents.start({ agent: 'general', task, maxIterations: 1 });
      expect((await run.result()).status).toBe('max_iterations');
      const resumed = await run.resume({ maxIterations: 2 });
      expect(resumed.workflowId).toBe(`${run.workflowId}-r2`);
      expect(await resumed.result()).toMatchObject({ status: 'completed', completion: { summary: 'finished after resume' } });
      await expect(resumed.resume()).rejects.toThrow(RunNotResumableError);
    });
  });
});
