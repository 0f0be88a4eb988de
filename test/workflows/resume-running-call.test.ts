// Resume of a run cancelled while a tool call ran: the call runs again if its tool is safe to repeat,
// and the model hears "outcome unknown" otherwise. Real server, fake model, tools held by the test.
import { CancelledFailure, WorkflowFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { resumeRun } from '../../src/client/resume-run';
import { defineTool } from '../../src/runtime/tools/tool-definition';
import { ToolResult } from '../../src/contract/tool-result';
import { statusQuery } from '../../src/contract/agent-run-api';
import { toolResultsIn, waitFor, withAgentWorker } from '../support/agent-run-harness';
import { useFakeModel } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

/** Each tool's first call waits until the test lets it go; later calls answer at once. */
function heldTool(name: string, scope: 'read' | 'write', idempotent: boolean) {
  const calls: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const tool = defineTool({
    name,
    description: `${name}: a tool the test holds on its first call.`,
    scope,
    idempotent,
    quick: false,
    timeoutSeconds: 120,
    inputSchema: z.object({ tag: z.string() }),
    async execute(input) {
      calls.push(input.tag);
      if (calls.length === 1) await released;
      return ToolResult.success(`${name} ran for ${input.tag} (call ${calls.length})`);
    },
  });
  return { tool, calls, release };
}

async function cancelled(result: Promise<unknown>): Promise<void> {
  const error = await result.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkflowFailedError);
  expect((error as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
}

describe('resume of a run stopped during a tool call', () => {
  const bed = useFakeModel();
  const fake = bed.fake;
  const safe = heldTool('safe_step', 'read', true);
  const unsafe = heldTool('unsafe_step', 'write', false);
  const agent: AgentDefinitionInput = {
    name: 'stepper',
    description: 'Runs held steps.',
    modelTier: 'balanced',
    tools: ['safe_step', 'unsafe_step'],
    systemPrompt: 'You run steps.',
    maxIterations: 10,
  };
  const done = reply(toolCall('complete_task', { summary: 'done after resume', status: 'success' }));

  it('runs a call of a tool safe to repeat again, and reports one that is not as outcome unknown', async () => {
    const safeTask = uniqueId('resume-safe');
    const unsafeTask = uniqueId('resume-unsafe');
    fake.script(safeTask, [reply(toolCall('safe_step', { tag: 'a' })), done]);
    fake.script(unsafeTask, [reply(toolCall('unsafe_step', { tag: 'b' })), done]);
    await withAgentWorker({ ...bed.harness(), agents: [agent], tools: [safe.tool, unsafe.tool] }, async ({ start, client, taskQueue }) => {
      const runs = [
        { task: safeTask, held: safe },
        { task: unsafeTask, held: unsafe },
      ];
      const resumed = [];
      for (const { task, held } of runs) {
        const handle = await start({ agent: 'stepper', task, toolApproval: { alwaysApproved: ['unsafe_step'] } });
        await waitFor(async () => (held.calls.length === 1 ? true : undefined), `${task}: the first call to start`);
        await waitFor(async () => ((await handle.query(statusQuery)).recentToolCalls.some((c) => c.outcome === 'running') ? true : undefined), `${task}: the call to show as running`);
        await handle.cancel();
        await cancelled(handle.result());
        held.release();
        const { handle: next } = await resumeRun(client, handle.workflowId, { taskQueue });
        resumed.push(await next.result());
      }
      for (const result of resumed) expect(result).toMatchObject({ status: 'completed', completion: { summary: 'done after resume' } });
    });
    // The safe call ran again and its real result reached the model.
    expect(safe.calls).toEqual(['a', 'a']);
    expect(toolResultsIn(fake.requestsFor(safeTask).at(-1))[0]).toMatchObject({ tool_use_id: 'toolu_0_0', content: 'safe_step ran for a (call 2)' });
    // The unsafe one did not run again; the model was told its outcome is unknown.
    expect(unsafe.calls).toEqual(['b']);
    const told = toolResultsIn(fake.requestsFor(unsafeTask).at(-1))[0];
    expect(told).toMatchObject({ tool_use_id: 'toolu_0_0', is_error: true });
    expect(told?.content).toMatch(/^outcome unknown/);
  });
});
