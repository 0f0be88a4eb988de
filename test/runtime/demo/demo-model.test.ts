// The offline demo model behind `npm start`, driven by a real worker on the shared dev server: its
// script must walk a run through a task list, a read tool, an approval and complete_task.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import type { WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LABEL, DEMO_NOTES_FILE, demoReply, startDemoModelServer, type DemoModelServer } from '../../../src/runtime/demo/demo-model-server';
import { decideApprovalUpdate, statusQuery } from '../../../src/contract/agent-run-api';
import { bundleAgentWorkflows, waitForPhase, withAgentWorker } from '../../support/agent-run-harness';

const TOOLS = ['read_file', 'write_file', 'list_files', 'update_tasks', 'complete_task'].map((name) => ({ name, input_schema: { type: 'object' as const } }));

describe('demoReply', () => {
  it('plans with update_tasks and looks around first, labeled as the demo model', () => {
    const blocks = demoReply({ model: 'm', max_tokens: 1, tools: TOOLS, messages: [{ role: 'user', content: 'anything' }] });
    expect(blocks[0]).toMatchObject({ type: 'text', text: expect.stringContaining(DEMO_LABEL) });
    expect(blocks.slice(1).map((b) => (b.type === 'tool_use' ? b.name : b.type))).toEqual(['update_tasks', 'list_files']);
  });

  it('ends partial without writing when the agent has no write_file tool', () => {
    const messages: Anthropic.MessageParam[] = [
      { role: 'user', content: 'anything' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_demo_0_1', name: 'list_files', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_demo_0_1', content: 'a.md' }] },
    ];
    const blocks = demoReply({ model: 'm', max_tokens: 1, tools: TOOLS.filter((t) => t.name !== 'write_file'), messages });
    expect(blocks.at(-1)).toMatchObject({ type: 'tool_use', name: 'complete_task', input: { status: 'partial' } });
  });
});

describe('demo model with a real worker', () => {
  let model: DemoModelServer;
  let workflowBundle: WorkflowBundle;
  beforeAll(async () => {
    [model, workflowBundle] = await Promise.all([startDemoModelServer(), bundleAgentWorkflows()]);
  });
  afterAll(() => model.close());

  async function demoRun(decision: 'approve' | 'reject') {
    return withAgentWorker({ fake: model, workflowBundle }, async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task: `${DEMO_LABEL} demo` });
      const parked = await waitForPhase(handle, 'waiting_approval');
      await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: parked.pendingApprovals[0]!.callId, decision, approver: 'tester' }] });
      const result = await handle.result();
      return { parked, result, workspace, status: await handle.query(statusQuery) };
    });
  }

  it('walks through a task list, list_files, an approved write_file and complete_task', async () => {
    const { parked, result, workspace, status } = await demoRun('approve');
    expect(parked.pendingApprovals.map((p) => p.tool)).toEqual(['write_file']);
    expect(parked.tasks.map((t) => t.status)).toEqual(['in_progress', 'pending', 'pending']);
    expect(result.status).toBe('completed');
    expect(result.iterations).toBe(3);
    expect(result.completion).toMatchObject({ status: 'success', summary: expect.stringContaining(DEMO_LABEL) });
    expect(result.tasks.map((t) => t.status)).toEqual(['completed', 'completed', 'completed']);
    expect(status.recentToolCalls.filter((c) => c.outcome !== 'waiting').map((c) => c.tool)).toEqual([
      'update_tasks',
      'list_files',
      'update_tasks',
      'write_file',
      'update_tasks',
      'complete_task',
    ]);
    const notes = await readFile(path.join(workspace, DEMO_NOTES_FILE), 'utf8');
    expect(notes).toContain(DEMO_LABEL);
  });

  it('ends partial, and says why, when the write is rejected', async () => {
    const { result } = await demoRun('reject');
    expect(result.completion).toMatchObject({ status: 'partial', summary: expect.stringContaining('was not written') });
    expect(result.tasks.map((t) => t.status)).toEqual(['completed', 'skipped', 'completed']);
  });
});
