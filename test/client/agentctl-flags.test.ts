// agentctl's flags that matter when things are not simple: deciding by signal and reading status
// while no worker runs, cancel --no-wait, approve --always, and cancel while a tool is running.
// Each runs the real agentctl binary against the shared dev server.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { preferencesQuery, preferencesWorkflowId } from '../../src/core/approvals/preference-messages';
import { startRun } from '../../src/client/start-run';
import { defineTool } from '../../src/runtime/tools/tool-definition';
import { ToolResult } from '../../src/contract/tool-result';
import { statusQuery } from '../../src/contract/agent-run-api';
import { tempWorkspace, waitFor, waitForApprovals, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { newClient, temporalAddress, uniqueId } from '../support/temporal';
import { agentctl } from './agentctl-process';

const complete = (summary = 'done') => reply(toolCall('complete_task', { summary, status: 'success' }));
const write = (file: string, content = 'x') => reply(toolCall('write_file', { path: file, content }));

/** A tool that runs until it is cancelled, so a test can act while a tool surely runs. */
let toolStarts = 0;
const untilCancelledTool = defineTool({
  name: 'until_cancelled',
  description: 'Works until cancelled.',
  scope: 'read',
  inputSchema: z.object({}),
  async execute(_input, { signal }) {
    toolStarts += 1;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 60_000);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return ToolResult.success('stopped');
  },
});
const busyAgent: AgentDefinitionInput = {
  name: 'busy',
  description: 'Runs a long tool.',
  modelTier: 'fast',
  tools: ['until_cancelled'],
  systemPrompt: 'You work.',
  maxIterations: 5,
};

describe('agentctl flags', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, busyAgent], tools: [untilCancelledTool] });
  const fake = bed.fake;
  const cli = (taskQueue: string, user = 'tester') => ({ TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue, USER: user });

  it('with no worker running: status says so (no hang), approve --signal is stored, cancel --no-wait returns at once; a worker then finishes both', async () => {
    const taskQueue = uniqueId('q-offline-cli');
    const workspace = await tempWorkspace();
    const serve = <T>(body: (client: Client) => Promise<T>): Promise<T> =>
      withAgentWorker({ ...bed.harness(), taskQueue, workspace }, ({ client }) => body(client));
    const [approveTask, cancelTask] = [uniqueId('offline-approve'), uniqueId('offline-cancel')];
    fake.script(approveTask, [write('signalled.txt'), complete()]);
    fake.script(cancelTask, [write('never.txt'), complete()]);
    const ids = await serve(async (client) => {
      const approve = await startRun(client, { agent: 'general', task: approveTask }, { taskQueue, workflowId: uniqueId('run') });
      const cancel = await startRun(client, { agent: 'general', task: cancelTask }, { taskQueue, workflowId: uniqueId('run') });
      await waitForApprovals(approve);
      await waitForApprovals(cancel);
      return { approve: approve.workflowId, cancel: cancel.workflowId };
    });
    const client = await newClient();
    try {
      // The worker is gone.
      let started = Date.now();
      const status = await agentctl(['status', ids.approve], cli(taskQueue));
      expect(status.code).toBe(1);
      expect(status.stdout).toContain(`Run ${ids.approve}: RUNNING`);
      expect(status.stdout).toContain('No run status: no worker answered the status query; start one with `npm run worker`');
      expect(Date.now() - started).toBeLessThan(25_000);

      const signalled = await agentctl(['approve', ids.approve, 'toolu_0_0', '--signal'], cli(taskQueue));
      expect(signalled).toMatchObject({ code: 0, stdout: `Sent approve for toolu_0_0 to ${ids.approve} as a signal (not confirmed; see \`agentctl pending\`).\n` });
      const history = (await client.workflow.getHandle(ids.approve).fetchHistory()).events ?? [];
      expect(history.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'approval')).toHaveLength(1);

      started = Date.now();
      const cancelled = await agentctl(['cancel', ids.cancel, '--no-wait'], cli(taskQueue));
      expect(cancelled).toMatchObject({ code: 0, stdout: `Cancellation requested for ${ids.cancel}.\n` });
      // Without --no-wait it would wait up to 30 s for a worker to confirm.
      expect(Date.now() - started).toBeLessThan(20_000);
      expect((await client.workflow.getHandle(ids.cancel).describe()).status.name).toBe('RUNNING');

      await serve(async (c) => {
        expect((await c.workflow.getHandle(ids.approve).result()).status).toBe('completed');
        await expect(c.workflow.getHandle(ids.cancel).result()).rejects.toThrow();
        expect((await c.workflow.getHandle(ids.cancel).describe()).status.name).toBe('CANCELLED');
      });
      expect(existsSync(path.join(workspace, 'signalled.txt'))).toBe(true);
      expect(existsSync(path.join(workspace, 'never.txt'))).toBe(false);
    } finally {
      for (const id of Object.values(ids)) await client.workflow.getHandle(id).terminate('test cleanup').catch(() => undefined);
      await client.connection.close();
    }
  }, 120_000);

  it('approve --always approves the call and remembers it for the person: the same call later runs without asking', async () => {
    const task = uniqueId('cli-always');
    const user = uniqueId('amy');
    fake.script(task, [write('same.txt', 'one'), write('same.txt', 'two'), complete()]);
    await withAgentWorker(bed.harness(), async ({ start, client, taskQueue }) => {
      const handle = await start({ agent: 'general', task, user });
      try {
        await waitForApprovals(handle);
        const approved = await agentctl(['approve', handle.workflowId, '--always'], cli(taskQueue, user));
        expect(approved.code).toBe(0);
        expect(approved.stdout).toContain(`${handle.workflowId}: approve_always applied to toolu_0_0`);
        expect((await handle.result()).status).toBe('completed');
        const status = await handle.query(statusQuery);
        expect(status.events.filter((e) => e.name === 'approvalRequested').map((e) => e.data.callId)).toEqual(['toolu_0_0']);
        expect(status.decisions[0]).toMatchObject({ callId: 'toolu_0_0', decision: 'approve_always', approver: user });
        const saved = await waitFor(async () => {
          const rules = await client.workflow.getHandle(preferencesWorkflowId(user)).query(preferencesQuery);
          return rules.length > 0 ? rules : undefined;
        }, 'the remembered choice');
        expect(saved).toEqual([expect.objectContaining({ tool: 'write_file', preference: 'always', by: user })]);
      } finally {
        await handle.terminate('test cleanup').catch(() => undefined);
        await client.workflow.getHandle(preferencesWorkflowId(user)).terminate('test cleanup').catch(() => undefined);
      }
    });
  });

  it('cancel in the middle of a tool ends the run as cancelled and stops the tool', async () => {
    const task = uniqueId('cli-cancel-tool');
    fake.script(task, [reply(toolCall('until_cancelled', {})), complete('should not happen')]);
    await withAgentWorker(bed.harness(), async ({ start, taskQueue }) => {
      const handle = await start({ agent: 'busy', task });
      try {
        const before = toolStarts;
        await waitFor(async () => ((await handle.query(statusQuery)).recentToolCalls.some((c) => c.outcome === 'running') && toolStarts > before ? true : undefined), 'the tool to run');
        const started = Date.now();
        const cancelled = await agentctl(['cancel', handle.workflowId], cli(taskQueue));
        expect(cancelled).toMatchObject({ code: 0, stdout: `🛑 Run ${handle.workflowId} was cancelled.\n` });
        // Well before the tool's own minute is up.
        expect(Date.now() - started).toBeLessThan(30_000);
        expect((await handle.describe()).status.name).toBe('CANCELLED');
        expect((await handle.query(statusQuery)).phase).toBe('cancelled');
      } finally {
        await handle.terminate('test cleanup').catch(() => undefined);
      }
    });
    // The model was not asked again after the cancellation.
    expect(fake.requestsFor(task)).toHaveLength(1);
  });
});
