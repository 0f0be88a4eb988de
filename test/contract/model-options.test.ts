import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { AgentConfigError, AgentDefinitionError } from '../../src/contract/errors';
import { createAgentRegistry } from '../../src/runtime/agents/agent-registry';
import { loadAgentConfig } from '../../src/runtime/config/load-agent-config';
import { readFileTool } from '../../src/runtime/tools/builtin/read-file';

const agent = (overrides: Partial<AgentDefinitionInput>): AgentDefinitionInput => ({
  name: 'deep',
  description: 'Thinks hard.',
  modelTier: 'powerful',
  tools: ['read_file'],
  systemPrompt: 'Think.',
  maxIterations: 5,
  ...overrides,
});

/** The message the worker stops with at start for this agent, or undefined when it is accepted. */
function refusal(overrides: Partial<AgentDefinitionInput>): string | undefined {
  try {
    createAgentRegistry([agent(overrides)], [readFileTool]);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AgentDefinitionError);
    return (error as Error).message;
  }
}

describe("an agent's model options", () => {
  it('accepts a model id, each kind of thinking, every effort, a temperature and server tools passed through as written', () => {
    for (const thinking of [{ type: 'adaptive' as const, display: 'omitted' as const }, { type: 'enabled' as const, budget_tokens: 2048 }, { type: 'between_tools' as const }, { type: 'disabled' as const }]) {
      expect(refusal({ model: 'claude-opus-4-8', thinking, maxTokens: 8192 })).toBeUndefined();
    }
    for (const effort of ['low', 'medium', 'high', 'xhigh', 'max'] as const) expect(refusal({ effort })).toBeUndefined();
    const registry = createAgentRegistry([agent({ temperature: 0.2, serverTools: [{ type: 'web_search_20260318', name: 'web_search', max_uses: 3, allowed_domains: ['example.com'] }] })], [readFileTool]);
    expect(registry.agents.get('deep')?.serverTools).toEqual([{ type: 'web_search_20260318', name: 'web_search', max_uses: 3, allowed_domains: ['example.com'] }]);
  });

  it('stops the worker at start naming the agent and the field, for each request the API would refuse', () => {
    const cases: [Partial<AgentDefinitionInput>, RegExp][] = [
      [{ thinking: { type: 'enabled', budget_tokens: 4096 }, maxTokens: 4096 }, /Agent "deep" is invalid:[\s\S]*thinking\.budget_tokens: 4096 must be less than maxTokens \(4096\)/],
      [{ thinking: { type: 'enabled', budget_tokens: 512 }, maxTokens: 4096 }, /Agent "deep" is invalid:[\s\S]*thinking\.budget_tokens[\s\S]*at least 1024/],
      [{ effort: 'extreme' as never }, /Agent "deep" is invalid:[\s\S]*effort/],
      [{ serverTools: [{ name: 'web_search' } as never] }, /Agent "deep" is invalid:[\s\S]*serverTools\.0\.type[\s\S]*needs its API `type`/],
      [{ thinking: { type: 'adaptive' }, temperature: 0.3 }, /Agent "deep" is invalid:[\s\S]*temperature: the API accepts no temperature but 1 while thinking is on/],
      [{ serverTools: [{ type: 'web_fetch_20260318', name: 'read_file' }] }, /serverTools\.0\.name: "read_file" is also one of the agent's own tools/],
    ];
    for (const [overrides, message] of cases) expect(refusal(overrides), JSON.stringify(overrides)).toMatch(message);
  });

  it('reports the same problems in agents.yaml with their place in the file', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'model-options-')), 'agents.yaml');
    const yaml = ['agents:', '  - name: deep', '    description: d', '    modelTier: fast', '    tools: []', '    systemPrompt: p', '    maxIterations: 3', '    maxTokens: 2048', '    thinking: { type: enabled, budget_tokens: 4096 }', '    effort: extreme', ''];
    await writeFile(file, yaml.join('\n'));
    const message = (() => {
      try {
        loadAgentConfig(file);
        return '';
      } catch (error) {
        expect(error).toBeInstanceOf(AgentConfigError);
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/agents\[0\]\.effort|agents\.0\.effort/);
    // Schema problems come first; with effort fixed, the budget is reported against maxTokens.
    await writeFile(file, yaml.filter((l) => !l.includes('effort')).join('\n'));
    expect(() => loadAgentConfig(file)).toThrow(/thinking\.budget_tokens: 4096 must be less than maxTokens \(2048\)/);
  });
});
