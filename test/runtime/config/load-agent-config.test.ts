import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../../src/runtime/config/load-agent-config';
import { AgentConfigError } from '../../../src/contract/errors';
import { createAgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';

const EXAMPLE = path.join(__dirname, '..', '..', '..', 'examples', 'agents.yaml');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'agent-config-'));
});

async function configFile(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

const problemsOf = (file: string) => {
  try {
    loadAgentConfig(file);
  } catch (error) {
    expect(error).toBeInstanceOf(AgentConfigError);
    return (error as Error).message;
  }
  throw new Error(`${file} was accepted`);
};

describe('loadAgentConfig', () => {
  it('reads the example: agents with MCP servers, tool rules, approvers, workspace, completion tools and an output schema', () => {
    const config = loadAgentConfig(EXAMPLE);
    expect(config.includeBuiltinAgents).toBe(true);
    expect(config.mcpServers.files).toMatchObject({ command: 'mcp-server-filesystem', sandbox: true, tools: { move_file: { scope: 'execute' } }, timeoutSeconds: 300 });
    const [librarian, triage, formatter] = config.agents;
    expect(librarian).toMatchObject({ name: 'librarian', mcpServers: ['files'], approvers: ['alice', 'bob'], workspace: 'per-run', completionTools: ['complete_task'] });
    expect(triage).toMatchObject({ completionTools: ['task_completed'], outputSchema: { required: ['kind', 'severity'] } });
    expect(formatter?.approval?.alwaysApproved).toContainEqual({ tool: 'shell', command: 'npx prettier --write *', writes: true });
  });

  it('reads JSON as well as YAML', async () => {
    const file = await configFile('agents.json', JSON.stringify({ agents: [{ name: 'a', description: 'd', modelTier: 'fast', tools: [], systemPrompt: 'p', maxIterations: 3 }] }));
    expect(loadAgentConfig(file).agents[0]).toMatchObject({ name: 'a', workspace: 'shared' });
  });

  it('names the file and the place of every problem, with what is expected there', async () => {
    const file = await configFile(
      'bad.yaml',
      [
        'mcpServers:',
        '  notes: { args: [x] }',
        '  "bad__name": { command: x }',
        'agents:',
        '  - name: Writer',
        '    description: d',
        '    modeltier: fast',
        '    tools: [read_file]',
        '    systemPrompt: p',
        '    maxIterations: 0',
        '    workspace: private',
      ].join('\n'),
    );
    const message = problemsOf(file);
    expect(message).toContain(`${file} is not a valid agent configuration:`);
    expect(message).toMatch(/- mcpServers\.notes: an MCP server needs either "command" \(a stdio server\) or "url"/);
    expect(message).toMatch(/- mcpServers\.bad__name: an MCP server name must not contain "__"/);
    expect(message).toMatch(/- agents\[0\]\.name: agent names are lower-case words/);
    expect(message).toMatch(/- agents\[0\]\.modeltier: unknown key; did you mean "modelTier"\?/);
    expect(message).toMatch(/- agents\[0\]\.modelTier: Invalid option: expected one of "fast"\|"balanced"\|"powerful"/);
    expect(message).toMatch(/- agents\[0\]\.maxIterations: Too small/);
    expect(message).toMatch(/- agents\[0\]\.workspace: Invalid option: expected one of "shared"\|"per-run"/);
  });

  it('checks what agents refer to: servers, MCP tools of unknown servers, output schemas, duplicate names', async () => {
    const agent = (name: string, extra: string) => `  - { name: ${name}, description: d, modelTier: fast, systemPrompt: p, maxIterations: 3, ${extra} }`;
    const file = await configFile(
      'refs.yaml',
      ['mcpServers:', '  notes: { command: node }', 'agents:', agent('a', 'tools: [mcp__docs__search], mcpServers: [notez]'), agent('a', 'tools: [], outputSchema: { type: objekt }')].join('\n'),
    );
    const message = problemsOf(file);
    expect(message).toContain('- agents[0].mcpServers[0]: no MCP server "notez" in mcpServers (there are: notes)');
    expect(message).toContain('- agents[0].tools[0]: "mcp__docs__search" names MCP server "docs", which mcpServers does not define');
    expect(message).toContain('- agents[1].name: a second agent is named "a"; agent names must be unique');
    expect(message).toMatch(/- agents\[1\]\.outputSchema: it is not a usable JSON Schema/);
  });

  it('accepts "writes": true on an allow rule, and names a value that is not a boolean or a rule that cannot grant writes', async () => {
    const agent = (approval: string) => `agents:\n  - { name: a, description: d, modelTier: fast, tools: [shell], systemPrompt: p, maxIterations: 3, approval: ${approval} }\n`;
    const good = await configFile('writes.yaml', agent('{ alwaysApproved: [{ tool: shell, command: "npm run format", writes: true }, { tool: shell, command: ls }] }'));
    expect(loadAgentConfig(good).agents[0]!.approval?.alwaysApproved).toEqual([{ tool: 'shell', command: 'npm run format', writes: true }, { tool: 'shell', command: 'ls' }]);

    // YAML 1.2 reads `yes` as a string, not a boolean.
    const notBoolean = problemsOf(await configFile('writes-bad.yaml', agent('{ alwaysApproved: [{ tool: shell, command: ls, writes: yes }] }')));
    expect(notBoolean).toContain('- agents[0].approval.alwaysApproved[0]: writes: must be true or false (true lets the calls this allow rule lets through change the workspace)');
    expect(notBoolean).toContain('  - agents[0].approval.alwaysApproved[0].writes: must be true or false');
    expect(notBoolean).not.toContain('expected string');
    const onReject = problemsOf(await configFile('writes-reject.yaml', agent('{ alwaysRejected: [{ tool: shell, command: rm, writes: false }] }')));
    expect(onReject).toContain('- agents[0].approval.alwaysRejected[0].writes: rule for shell: "writes" only applies to alwaysApproved rules; remove it here');
  });

  it('reads a scope policy that says "approve", the old word for "ask", as "ask", and names a word that is neither', async () => {
    const agent = (scopes: string) => `agents:\n  - { name: a, description: d, modelTier: fast, tools: [shell], systemPrompt: p, maxIterations: 3, approval: { scopes: ${scopes} } }\n`;
    const old = await configFile('scopes-approve.yaml', agent('{ read: allow, write: approve, execute: reject }'));
    expect(loadAgentConfig(old).agents[0]!.approval?.scopes).toEqual({ read: 'allow', write: 'ask', execute: 'reject' });
    const json = await configFile('scopes-approve.json', JSON.stringify({ agents: [{ name: 'a', description: 'd', modelTier: 'fast', tools: [], systemPrompt: 'p', maxIterations: 3, approval: { scopes: { execute: 'approve' } } }] }));
    expect(loadAgentConfig(json).agents[0]!.approval?.scopes).toEqual({ execute: 'ask' });
    const bad = problemsOf(await configFile('scopes-bad.yaml', agent('{ write: maybe }')));
    expect(bad).toContain('- agents[0].approval.scopes.write: must be "allow", "ask" (a person decides; "approve" is an alias) or "reject"');
  });

  it('reports YAML syntax errors with their line, and a missing file with its path', async () => {
    expect(problemsOf(await configFile('syntax.yaml', 'includeBuiltinAgents: true\nagents: []\nagents: []\n'))).toMatch(/- line 3, column 1: Map keys must be unique/);
    expect(problemsOf(await configFile('unclosed.yaml', 'agents:\n  - name: [unclosed\n'))).toMatch(/- line \d+, column \d+: Flow sequence/);
    expect(() => loadAgentConfig(path.join(dir, 'missing.yaml'))).toThrow(/Cannot read the agent configuration .*missing\.yaml \(AGENT_CONFIG\): ENOENT/);
  });
});

describe('createAgentWorker with AGENT_CONFIG', () => {
  it('fails at start, before connecting to Temporal, naming the file and the path', async () => {
    const file = await configFile('worker.yaml', 'agents:\n  - { name: x, description: d, modelTier: fast, tools: [teleport], systemPrompt: p, maxIterations: 3 }\n');
    const creating = createAgentWorker({ address: '127.0.0.1:1', env: { AGENT_CONFIG: file } });
    await expect(creating).rejects.toThrow(AgentConfigError);
    await expect(creating).rejects.toThrow(`${file} is not a valid agent configuration:\n- agents[0].tools[0]: unknown tool "teleport"; known tools: read_file`);
  });
});
