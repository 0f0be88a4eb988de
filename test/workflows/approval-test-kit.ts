// What the approval tests share: a tool that counts how often it really ran, its agent, and helpers
// that start a worker, wait for a parked run or read the tool results a request carries.

import { Client, type WorkflowHandle } from '@temporalio/client';
import { expect } from 'vitest';
import { useAgentTestbed } from '../support/agent-testbed';
import { z } from 'zod';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { preferencesWorkflowId } from '../../src/core/approvals/preference-messages';
import type { ToolResultBlock } from '../../src/contract/messages';
import { defineTool } from '../../src/runtime/tools/tool-definition';
import { ToolResult } from '../../src/contract/tool-result';
import { createAgentWorker } from '../../src/runtime/worker-setup/create-agent-worker';
import type { agentRun } from '../../src/workflows/agent-run';
import { statusQuery } from '../../src/contract/agent-run-api';
import type { RunStatus } from '../../src/contract/run-status';
import { waitFor } from '../support/agent-run-harness';
import { reply, toolCall, type FakeRequest } from '../support/fake-anthropic';
import { temporalAddress } from '../support/temporal';

export type RunHandle = WorkflowHandle<typeof agentRun>;

export const complete = (summary = 'done') => reply(toolCall('complete_task', { summary, status: 'success' }));
export const write = (file: string, content = 'hello') => toolCall('write_file', { path: file, content });
export const shell = (command: string) => toolCall('shell', { command });

/** How often `tally` really ran, per key: the proof that a duplicate decision did not run it twice. */
export const tallies = new Map<string, number>();
export const tallyTool = defineTool({
  name: 'tally',
  description: 'Counts one use of a key (a write, so it needs approval).',
  scope: 'write',
  inputSchema: z.object({ key: z.string() }),
  async execute({ key }) {
    tallies.set(key, (tallies.get(key) ?? 0) + 1);
    return ToolResult.success(`tallied ${key}`);
  },
});
export const tallyAgent: AgentDefinitionInput = {
  name: 'tallier',
  description: 'Counts things.',
  modelTier: 'fast',
  tools: ['tally'],
  systemPrompt: 'You count.',
  maxIterations: 10,
};

/** The tool results a request carries in its last message, in order. */
export function resultsIn(request: FakeRequest | undefined): ToolResultBlock[] {
  const last = request?.body.messages.at(-1);
  expect(last?.role).toBe('user');
  expect(Array.isArray(last?.content)).toBe(true);
  return last!.content as unknown as ToolResultBlock[];
}

/** Waits until the run is parked on at least `count` calls and returns its status. */
export function parked(handle: RunHandle, count = 1): Promise<RunStatus> {
  return waitFor(async () => {
    const status = await handle.query(statusQuery);
    return status.phase === 'waiting_approval' && status.pendingApprovals.length >= count ? status : undefined;
  }, `${handle.workflowId} to wait for ${count} approval(s)`);
}

/** The preferences workflows a test created outlive its worker; end them so no later run waits on them. */
export async function endPreferences(client: Client, ...users: string[]) {
  for (const user of users) {
    await client.workflow.getHandle(preferencesWorkflowId(user)).terminate('test cleanup').catch(() => undefined);
  }
}

/** A worker on a chosen task queue (and server), for tests where two workers must serve one run. */
export async function runWorker<T>(
  bed: ReturnType<typeof useAgentTestbed>,
  opts: { taskQueue: string; workspace: string; address?: string },
  body: (client: Client) => Promise<T>,
): Promise<T> {
  const agentWorker = await createAgentWorker({
    address: opts.address ?? temporalAddress(),
    taskQueue: opts.taskQueue,
    workspaceRoot: opts.workspace,
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: bed.fake.baseUrl },
    workflowBundle: bed.harness().workflowBundle,
    auditLog: false,
  });
  try {
    return await agentWorker.worker.runUntil(body(agentWorker.client));
  } finally {
    await agentWorker.close();
  }
}
