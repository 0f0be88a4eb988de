import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createAgentRegistry } from '../../../src/runtime/agents/agent-registry';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { builtinAgents } from '../../../src/runtime/agents/builtin-agents';
import { AgentDefinitionError, ToolDefinitionError } from '../../../src/contract/errors';
import { builtinTools } from '../../../src/runtime/tools/builtin';
import { readFileTool } from '../../../src/runtime/tools/builtin/read-file';
import { defineTool, type Tool } from '../../../src/runtime/tools/tool-definition';
import { ToolResult } from '../../../src/contract/tool-result';
import { createAgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';

const agent = (overrides: Partial<AgentDefinitionInput> = {}): AgentDefinitionInput => ({
  name: 'tester',
  description: 'An agent for tests.',
  modelTier: 'fast',
  tools: ['read_file'],
  systemPrompt: 'Test things.',
  maxIterations: 5,
  ...overrides,
});

const echoTool = (name: string) =>
  defineTool({
    name,
    description: 'Echoes its input.',
    scope: 'read',
    inputSchema: z.object({ text: z.string() }),
    execute: async ({ text }) => ToolResult.success(text),
  });

describe('createAgentRegistry', () => {
  it('serves the built-in agents: general with every tool, reader read-only on the fast tier', () => {
    const registry = createAgentRegistry(builtinAgents, builtinTools);
    const names = (a: string) => registry.modelTools(a).map((t) => t.name);
    expect(names('general')).toEqual([
      'read_file', 'write_file', 'list_files', 'search_files', 'shell',
      'complete_task', 'need_more_information', 'update_tasks', 'summarize_and_continue',
    ]);
    expect(names('reader')).not.toContain('write_file');
    expect(names('reader')).not.toContain('shell');
    expect(names('reader')).toContain('complete_task');
    expect(registry.agents.get('reader')?.modelTier).toBe('fast');
    for (const spec of registry.modelTools('general')) expect(spec.input_schema).toMatchObject({ type: 'object' });
  });

  it('refuses two tools with the same name', () => {
    expect(() => createAgentRegistry(builtinAgents, [...builtinTools, echoTool('read_file')])).toThrow(
      new AgentDefinitionError('Two tools are named "read_file"; tool names must be unique.'),
    );
  });

  it('refuses a tool named like a control tool', () => {
    expect(() => createAgentRegistry([agent()], [readFileTool as Tool, echoTool('complete_task') as Tool])).toThrow(/reserved/);
  });

  it('refuses a tool whose schema is not an object, even one built without defineTool', () => {
    expect(() =>
      defineTool({ name: 'bad', description: 'x', scope: 'read', inputSchema: z.string() as unknown as z.ZodObject, execute: async () => ToolResult.success('') }),
    ).toThrow(ToolDefinitionError);
    const handMade = { ...echoTool('handmade'), inputSchema: z.array(z.string()) } as unknown as Tool;
    expect(() => createAgentRegistry([agent()], [readFileTool as Tool, handMade])).toThrow(AgentDefinitionError);
    expect(() => createAgentRegistry([agent()], [readFileTool as Tool, handMade])).toThrow(/must have a z.object input schema/);
  });

  it('refuses a tool name the Messages API would reject', () => {
    expect(() => echoTool('has spaces')).toThrow(ToolDefinitionError);
  });

  it('refuses an agent that lists an unknown tool, naming the known ones', () => {
    expect(() => createAgentRegistry([agent({ tools: ['read_file', 'teleport'] })], builtinTools)).toThrow(
      /Agent "tester" uses unknown tool "teleport". Known tools: read_file, write_file/,
    );
  });

  it('refuses an agent that lists a tool twice', () => {
    expect(() => createAgentRegistry([agent({ tools: ['read_file', 'read_file'] })], builtinTools)).toThrow(/lists tool "read_file" twice/);
  });

  it('refuses two agents with the same name', () => {
    expect(() => createAgentRegistry([agent(), agent()], builtinTools)).toThrow(new AgentDefinitionError('Two agents are named "tester".'));
  });

  it('keeps "writes": true on an agent\'s allow rule, and refuses a value that is not a boolean, naming the rule', () => {
    const granted = createAgentRegistry([agent({ approval: { alwaysApproved: [{ tool: 'read_file', writes: true }] } })], builtinTools);
    expect(granted.agents.get('tester')?.approval?.alwaysApproved).toEqual([{ tool: 'read_file', writes: true }]);
    const bad = agent({ approval: { alwaysApproved: [{ tool: 'read_file', writes: 'always' as never }] } });
    expect(() => createAgentRegistry([bad], builtinTools)).toThrow(AgentDefinitionError);
    expect(() => createAgentRegistry([bad], builtinTools)).toThrow(/approval\.alwaysApproved\.0: writes: must be true or false/);
  });

  it('refuses an agent definition that does not match the schema, saying which field', () => {
    const bad = agent({ modelTier: 'huge' as never, maxIterations: 0 });
    expect(() => createAgentRegistry([bad], builtinTools)).toThrow(AgentDefinitionError);
    expect(() => createAgentRegistry([bad], builtinTools)).toThrow(/modelTier[\s\S]*maxIterations/);
  });
});

describe('createAgentWorker', () => {
  it('rejects a bad definition before it connects to Temporal', async () => {
    // Nothing listens on port 1: a worker that tried to connect would fail ~10 s later with
    // "Failed to connect before the deadline" instead.
    const creating = createAgentWorker({ address: '127.0.0.1:1', taskQueue: 'never-polled', agents: [agent({ tools: ['teleport'] })] });
    await expect(creating).rejects.toThrow(AgentDefinitionError);
    await expect(creating).rejects.toThrow(/unknown tool "teleport"/);
  });

  it('rejects a duplicate agent before it connects to Temporal', async () => {
    await expect(createAgentWorker({ address: '127.0.0.1:1', agents: [agent(), agent()] })).rejects.toThrow(AgentDefinitionError);
  });
});
