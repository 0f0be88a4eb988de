// A worker makes its workspace folder only when something works in it: agents with file tools get it
// at start; agents with only tools of their own leave none, unless a tool asks for the folder.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinAgents } from '../../../src/runtime/agents/builtin-agents';
import { defineTool, type Tool } from '../../../src/runtime/tools/tool-definition';
import { ToolResult } from '../../../src/contract/tool-result';
import { withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

const bed = useAgentTestbed();
const complete = () => reply(toolCall('complete_task', { summary: 'done', status: 'success' }));

describe('the workspace folder', () => {
  it('is not made for agents whose tools never ask for it, and is made by the first tool that does', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'lazy-ws-'));
    const workspace = path.join(parent, 'workspace');
    const lookup = defineTool({ name: 'lookup_order', description: 'Looks an order up.', scope: 'read', inputSchema: z.object({ id: z.string() }), execute: async ({ id }) => ToolResult.success(`order ${id}: shipped`) });
    const where = defineTool({ name: 'where_am_i', description: 'Names the workspace.', scope: 'read', inputSchema: z.object({}), execute: async (_input, ctx) => ToolResult.success(ctx.workspaceRoot) });
    const agents = [{ ...builtinAgents[0]!, name: 'helpdesk', tools: ['lookup_order', 'where_am_i'] }];
    try {
      await withAgentWorker({ ...bed.harness(), workspace, agents, tools: [lookup, where] as Tool[] }, async ({ start }) => {
        expect(existsSync(workspace)).toBe(false);
        const quiet = uniqueId('no-files');
        bed.fake.script(quiet, [reply(toolCall('lookup_order', { id: '42' })), complete()]);
        expect((await (await start({ agent: 'helpdesk', task: quiet })).result()).status).toBe('completed');
        expect(existsSync(workspace)).toBe(false);
        const asks = uniqueId('asks');
        bed.fake.script(asks, [reply(toolCall('where_am_i', {})), complete()]);
        expect((await (await start({ agent: 'helpdesk', task: asks })).result()).status).toBe('completed');
        expect(existsSync(workspace)).toBe(true);
      });
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
