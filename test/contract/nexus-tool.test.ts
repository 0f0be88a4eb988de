// nexusTools on an agent (issue 36): checked where the agent is defined (in code or in a config file),
// and turned by the registry into tools the model sees and targets the workflow calls.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { defineAgent } from '../../src/contract/define-agent';
import { AgentConfigError, AgentDefinitionError } from '../../src/contract/errors';
import type { NexusToolInput } from '../../src/contract/nexus-tool';
import { createAgentRegistry } from '../../src/runtime/agents/agent-registry';
import { loadAgentConfig } from '../../src/runtime/config/load-agent-config';

const forecast: NexusToolInput = {
  endpoint: 'weather-endpoint',
  service: 'weather',
  operation: 'forecast',
  description: 'A forecast.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  scope: 'write',
};
const agent = (nexusTools: unknown[]): AgentDefinitionInput =>
  ({ name: 'forecaster', description: 'd', modelTier: 'fast', tools: [], systemPrompt: 's', maxIterations: 3, nexusTools }) as AgentDefinitionInput;

const refusal = (nexusTools: unknown[]) => {
  try {
    defineAgent(agent(nexusTools));
  } catch (error) {
    expect(error).toBeInstanceOf(AgentDefinitionError);
    return (error as Error).message;
  }
  throw new Error('the definition was accepted');
};

describe('nexusTools in an agent definition', () => {
  it('accepts a Nexus tool and refuses a missing endpoint, a schema that is not an object, an unknown key, a bad name and a duplicate', () => {
    expect(defineAgent(agent([forecast])).nexusTools).toHaveLength(1);
    expect(refusal([{ ...forecast, endpoint: '' }])).toMatch(/nexusTools\.0\.endpoint/);
    expect(refusal([{ ...forecast, inputSchema: { type: 'string' } }])).toContain('inputSchema must be a JSON Schema of type "object"');
    expect(refusal([{ ...forecast, scopes: 'read' }])).toMatch(/scopes/);
    expect(refusal([{ ...forecast, name: 'has space' }])).toContain('a tool name is 1-64 letters');
    expect(refusal([forecast, { ...forecast, description: 'again' }])).toContain('two Nexus tools are named "weather_forecast"; give one a "name"');
    expect(defineAgent(agent([forecast, { ...forecast, name: 'forecast_again' }])).nexusTools).toHaveLength(2);
  });

  it('is read from a config file like any other agent field', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'nexus-config-'));
    const file = path.join(dir, 'agents.yaml');
    const yaml = (schemaType: string) =>
      [
        'agents:',
        '  - { name: forecaster, description: d, modelTier: fast, tools: [], systemPrompt: s, maxIterations: 3,',
        '      nexusTools: [{ endpoint: weather-endpoint, service: weather, operation: forecast, description: A forecast.,',
        `                     scope: read, inputSchema: { type: ${schemaType}, properties: { city: { type: string } } } }] }`,
      ].join('\n');
    await writeFile(file, yaml('object'));
    expect(loadAgentConfig(file).agents[0]?.nexusTools).toEqual([expect.objectContaining({ endpoint: 'weather-endpoint', service: 'weather', operation: 'forecast', scope: 'read' })]);
    await writeFile(file, yaml('array'));
    expect(() => loadAgentConfig(file)).toThrow(AgentConfigError);
  });
});

describe('the registry with Nexus tools', () => {
  it('shows each to the model as declared, tells the workflow its scope and target, and keeps other agents as they were', () => {
    const registry = createAgentRegistry([agent([forecast]), { ...agent([]), name: 'plain' }], []);
    expect(registry.modelTools('forecaster')).toContainEqual({ name: 'weather_forecast', description: 'A forecast.', input_schema: forecast.inputSchema });
    expect(registry.toolInfo('forecaster').weather_forecast).toMatchObject({ scope: 'write' });
    expect(registry.nexusTargets('forecaster')).toEqual({ weather_forecast: { endpoint: 'weather-endpoint', service: 'weather', operation: 'forecast' } });
    expect(registry.nexusTargets('plain')).toEqual({});
  });

  it('refuses a Nexus tool named like a control tool, when the worker starts', () => {
    expect(() => createAgentRegistry([agent([{ ...forecast, name: 'complete_task' }])], [])).toThrow(/Nexus tool "complete_task" \(weather\/forecast\) has the name of another of its tools/);
  });
});
