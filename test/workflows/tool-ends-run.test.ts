import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { defineTool, type Tool } from '../../src/runtime/tools/tool-definition';
import { ToolResult } from '../../src/contract/tool-result';
import { useAgentTestbed } from '../support/agent-testbed';
import { withAgentWorker } from '../support/agent-run-harness';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

// The seed pattern the README advertises: a tool that returns `ToolResult.complete(output)` ends the
// run, with that output as the completion's summary, once the other calls of its turn have finished.
describe('a tool whose result says shouldContinue: false', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('ends the run with its output as the summary, after the other calls of the same turn finish', async () => {
    const task = uniqueId('tool-ends-run');
    const ran: string[] = [];
    const wrapUp = defineTool({
      name: 'wrap_up',
      description: 'Writes the final report and ends the run.',
      scope: 'read',
      inputSchema: z.object({}),
      execute: async () => {
        ran.push('wrap_up');
        return ToolResult.complete('report filed: 3 findings');
      },
    });
    const slowNote = defineTool({
      name: 'slow_note',
      description: 'Takes a moment, then notes something.',
      scope: 'read',
      inputSchema: z.object({ note: z.string() }),
      execute: async ({ note }) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        ran.push(`slow_note:${note}`);
        return ToolResult.success(`noted ${note}`);
      },
    });
    const agents = [{ ...builtinAgents[0]!, tools: ['wrap_up', 'slow_note'] }];
    // One reply only: a second model request would be unscripted, and the testbed fails the test on it.
    fake.script(task, [reply(toolCall('wrap_up', {}), toolCall('slow_note', { note: 'last' }))]);
    const result = await withAgentWorker({ ...bed.harness(), agents, tools: [wrapUp as Tool, slowNote as Tool] }, async ({ start }) =>
      (await start({ agent: 'general', task })).result(),
    );
    expect(result.status).toBe('completed');
    expect(result.completion).toEqual({ summary: 'report filed: 3 findings', status: 'success' });
    expect(result.iterations).toBe(1);
    expect(ran.sort()).toEqual(['slow_note:last', 'wrap_up']);
    expect(fake.requestsFor(task)).toHaveLength(1);
  });

  it('goes on when the tool returns an ordinary success', async () => {
    const task = uniqueId('tool-continues');
    const note = defineTool({
      name: 'note',
      description: 'Notes something.',
      scope: 'read',
      inputSchema: z.object({}),
      execute: async () => ToolResult.success('noted'),
    });
    const agents = [{ ...builtinAgents[0]!, tools: ['note'] }];
    fake.script(task, [reply(toolCall('note', {})), reply(toolCall('complete_task', { summary: 'model said so', status: 'success' }))]);
    const result = await withAgentWorker({ ...bed.harness(), agents, tools: [note as Tool] }, async ({ start }) => (await start({ agent: 'general', task })).result());
    expect(result.completion?.summary).toBe('model said so');
    expect(fake.requestsFor(task)).toHaveLength(2);
  });
});
