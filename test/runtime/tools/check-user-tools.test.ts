import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { describe, expect, it } from 'vitest';
import { AgentDefinitionError, ToolDefinitionError, ZodVersionMismatchError } from '../../../src/contract/errors';
import { ToolResult } from '../../../src/contract/tool-result';
import { builtinTools } from '../../../src/runtime/tools/builtin';
import { checkUserTools } from '../../../src/runtime/tools/check-user-tools';
import { defineTool, type Tool } from '../../../src/runtime/tools/tool-definition';
import { createAgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';

const echoTool = (name: string) =>
  defineTool({
    name,
    description: 'Echoes its input.',
    scope: 'read',
    inputSchema: z.object({ text: z.string() }),
    execute: async ({ text }) => ToolResult.success(text),
  }) as unknown as Tool;

/** A tool built without defineTool, as a user may (a spread, a plain object): nothing checked it yet. */
const handMade = (name: string, inputSchema: unknown) => ({ ...echoTool('placeholder'), name, inputSchema }) as unknown as Tool;

const agent = (tools: string[]) => ({ name: 'helper', description: 'Helps.', modelTier: 'fast' as const, tools, systemPrompt: 'Help.', maxIterations: 3 });

// Nothing listens on port 1: a worker that got past the checks would fail ~10 s later trying to connect.
const creating = (tools: Tool[], toolNames = tools.map((t) => t.name)) =>
  createAgentWorker({ address: '127.0.0.1:1', taskQueue: 'never-polled', agents: [agent(toolNames)], tools });

describe('checkUserTools (at createAgentWorker)', () => {
  it('refuses a tool whose schema is not an object, naming the tool and the fix', async () => {
    const attempt = creating([handMade('lookup', z.string())]);
    await expect(attempt).rejects.toThrow(ToolDefinitionError);
    await expect(attempt).rejects.toThrow(/Tool "lookup" must take a z\.object\(\{\.\.\.\}\) input schema.*Wrap the arguments in an object/);
  });

  it('refuses two user tools with the same name', async () => {
    const attempt = creating([echoTool('lookup'), echoTool('lookup')], ['lookup']);
    await expect(attempt).rejects.toThrow(ToolDefinitionError);
    await expect(attempt).rejects.toThrow('Two tools passed to createAgentWorker are named "lookup"; tool names must be unique, so rename one of them.');
  });

  it('refuses a user tool named like a built-in or a control tool', async () => {
    await expect(creating([echoTool('read_file')])).rejects.toThrow('Tool "read_file" has the name of a built-in tool; rename yours (e.g. "my_read_file").');
    await expect(creating([echoTool('complete_task')], [])).rejects.toThrow(/Tool "complete_task" has the name of the runtime's control tool/);
  });

  it('refuses a name the Messages API would refuse, even on a tool built without defineTool', async () => {
    for (const name of ['look up', '', 'x'.repeat(65), 'résumé']) {
      const attempt = creating([handMade(name, z.object({}))], []);
      await expect(attempt).rejects.toThrow(ToolDefinitionError);
      await expect(attempt).rejects.toThrow(`Tool name "${name}" is not one the Messages API accepts: use 1 to 64 letters, digits, "_" or "-"`);
    }
  });

  it('refuses an agent naming a tool no one defined, saying how to define it', async () => {
    const attempt = creating([echoTool('lookup')], ['lookup', 'teleport']);
    await expect(attempt).rejects.toThrow(AgentDefinitionError);
    await expect(attempt).rejects.toThrow(/Agent "helper" uses unknown tool "teleport"\. Known tools: .*lookup\. Define "teleport" with defineTool and pass it in createAgentWorker\(\{ tools \}\)/);
  });

  it('reports a schema built with zod 3 as a version mismatch, not as a non-object schema', async () => {
    const attempt = creating([handMade('legacy', z3.object({ text: z3.string() }))]);
    await expect(attempt).rejects.toThrow(ZodVersionMismatchError);
    await expect(attempt).rejects.toThrow(/Tool "legacy" has an input schema built with zod 3, but durable-agent runs with zod 4\. .*npm ls zod/);
  });

  it('accepts good user tools beside the built-in ones', () => {
    expect(() => checkUserTools(builtinTools, [echoTool('lookup'), echoTool('fetch_page')])).not.toThrow();
  });
});
