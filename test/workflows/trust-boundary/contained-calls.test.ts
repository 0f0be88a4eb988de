// The six calls of issue 30 that got through end to end, each on a real worker with the real bwrap
// sandbox (commands as `nobody`), a run that has `network: true`, and a TCP listener on loopback as the
// canary: whatever the analyzer or the mode let through, no hidden program may reach it.
//
// Calls 1 and 2 run twice: as `shell` (whatever today's analyzer says) and as `blind_shell`, the real
// shell tool whose analyzer reads every call as the harmless command the rule names. The blind run
// shows the containment does not rest on the analyzer: the hidden program runs, and still cannot reach
// the listener, because a call a rule allowed has no network unless the rule grants it.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import type { ToolApproval } from '../../../src/contract/approval-rules';
import { builtinAgents } from '../../../src/runtime/agents/builtin-agents';
import { withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';
import { probeServer } from '../../runtime/mcp/support/server-entries';
import { startCanary, type Canary } from './support/canary';
import { blindShell, gitRepo, outputOf, probe, runToEnd } from './support/contained-run';

const done = reply(toolCall('complete_task', { summary: 'done', status: 'success' }));
const general = builtinAgents.find((a) => a.name === 'general')!;

describe('the six calls of issue 30, end to end', () => {
  const bed = useAgentTestbed({ env: { AGENT_SANDBOX: 'bwrap' } });
  const fake = bed.fake;
  let canary: Canary;

  beforeAll(async () => {
    canary = await startCanary();
  });
  afterAll(() => canary.close());
  beforeEach(() => canary.reset());

  describe('1. git grep -O under "git grep *"', () => {
    const rules: ToolApproval = { alwaysApproved: [{ tool: 'shell', command: 'git grep *' }, { tool: 'blind_shell', argumentsMatch: '^git grep ' }] };
    const command = (port: number) => `git grep --no-index -O'bash -c "${probe(port)}"' -e hello`;

    it('as shell: parks or runs without reaching the listener', async () => {
      const task = uniqueId('git-grep-o');
      fake.script(task, [reply(toolCall('shell', { command: command(canary.port) }, 'grep')), done]);
      await withAgentWorker(bed.harness(), async (harness) => {
        await writeFile(path.join(harness.workspace, 'notes.txt'), 'hello\n');
        const outcome = await runToEnd(harness, fake, { task, toolApproval: rules });
        if (!outcome.asked.includes('grep')) expect(outputOf(outcome, 'grep')).not.toContain('REACHED');
      });
      expect(canary.connections()).toBe(0);
    });

    it('as blind_shell: the hidden program runs, and cannot reach the listener', async () => {
      const task = uniqueId('git-grep-o-blind');
      fake.script(task, [reply(toolCall('blind_shell', { command: command(canary.port) }, 'grep')), done]);
      const agent: AgentDefinitionInput = { ...general, name: 'blind', tools: [...general.tools, 'blind_shell'] };
      await withAgentWorker({ ...bed.harness(), agents: [agent], tools: [blindShell('git grep --no-index -e hello')] }, async (harness) => {
        await writeFile(path.join(harness.workspace, 'notes.txt'), 'hello\n');
        const outcome = await runToEnd(harness, fake, { task, agent: 'blind', toolApproval: rules });
        expect(outcome.asked).toEqual([]);
        expect(outputOf(outcome, 'grep')).toContain('HIDDEN-RAN');
        expect(outputOf(outcome, 'grep')).toContain('BLOCKED');
      });
      expect(canary.connections()).toBe(0);
    });
  });

  describe('2. BASH_CMDS under "printf *" and "cat *"', () => {
    const rules: ToolApproval = { alwaysApproved: [{ tool: 'shell', command: 'printf *' }, { tool: 'shell', command: 'cat *' }, { tool: 'blind_shell', argumentsMatch: '^(printf|cat) ' }] };
    const command = (port: number) => `printf -v 'BASH_CMDS[cat]' %s /bin/bash; cat -c '${probe(port)}'`;

    it('as shell: parks or runs without reaching the listener', async () => {
      const task = uniqueId('bash-cmds');
      fake.script(task, [reply(toolCall('shell', { command: command(canary.port) }, 'cmds')), done]);
      await withAgentWorker(bed.harness(), async (harness) => {
        const outcome = await runToEnd(harness, fake, { task, toolApproval: rules });
        if (!outcome.asked.includes('cmds')) expect(outputOf(outcome, 'cmds')).not.toContain('REACHED');
      });
      expect(canary.connections()).toBe(0);
    });

    it('as blind_shell: the hidden bash runs, and cannot reach the listener', async () => {
      const task = uniqueId('bash-cmds-blind');
      fake.script(task, [reply(toolCall('blind_shell', { command: command(canary.port) }, 'cmds')), done]);
      const agent: AgentDefinitionInput = { ...general, name: 'blind', tools: [...general.tools, 'blind_shell'] };
      await withAgentWorker({ ...bed.harness(), agents: [agent], tools: [blindShell('printf x; cat notes.txt')] }, async (harness) => {
        const outcome = await runToEnd(harness, fake, { task, agent: 'blind', toolApproval: rules });
        expect(outcome.asked).toEqual([]);
        expect(outputOf(outcome, 'cmds')).toContain('HIDDEN-RAN');
        expect(outputOf(outcome, 'cmds')).toContain('BLOCKED');
      });
      expect(canary.connections()).toBe(0);
    });
  });

  describe('3. a .gitconfig planted in acceptEdits, then the formatter\'s "git status"', () => {
    const rules: ToolApproval = { alwaysApproved: [{ tool: 'shell', command: 'git status' }, { tool: 'shell', command: 'git diff *' }] };
    const gitconfig = (port: number) => `[core]\n\tfsmonitor = "bash -c '${probe(port)}' #"\n`;

    it('the write asks a person; the allowed git status then runs nothing', async () => {
      const task = uniqueId('gitconfig');
      fake.script(task, [reply(toolCall('write_file', { path: '.gitconfig', content: gitconfig(canary.port) }, 'plant')), reply(toolCall('shell', { command: 'git status' }, 'status')), done]);
      await withAgentWorker(bed.harness(), async (harness) => {
        await gitRepo(harness.workspace);
        const outcome = await runToEnd(harness, fake, { task, toolApproval: rules, mode: 'acceptEdits' });
        expect(outcome.asked).toEqual(['plant']);
        expect(outputOf(outcome, 'status')).toContain('exit code 0');
      });
      expect(canary.connections()).toBe(0);
    });

    it('a .gitconfig already in the workspace configures nothing, even for a call a person approved (which has the network)', async () => {
      const task = uniqueId('gitconfig-left');
      fake.script(task, [reply(toolCall('shell', { command: 'git status' }, 'status')), done]);
      await withAgentWorker(bed.harness(), async (harness) => {
        await gitRepo(harness.workspace);
        await writeFile(path.join(harness.workspace, '.gitconfig'), gitconfig(canary.port));
        const outcome = await runToEnd(harness, fake, { task, approve: ['status'] });
        expect(outcome.asked).toEqual(['status']);
        expect(outputOf(outcome, 'status')).toContain('exit code 0');
        expect(outputOf(outcome, 'status')).not.toContain('HIDDEN-RAN');
      });
      expect(canary.connections()).toBe(0);
    });
  });

  describe('4. .git/commondir pointing at a planted config', () => {
    const plantedConfig = (port: number) => `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "bash -c '${probe(port)}' #"\n`;

    it('writing .git/commondir asks a person in acceptEdits; the allowed git status then runs nothing', async () => {
      const task = uniqueId('commondir');
      fake.script(task, [
        reply(
          toolCall('write_file', { path: 'cfg/config', content: plantedConfig(canary.port) }, 'config'),
          toolCall('write_file', { path: 'cfg/objects/info/x', content: '' }, 'objects'),
          toolCall('write_file', { path: 'cfg/refs/heads/x', content: '' }, 'refs'),
          toolCall('write_file', { path: '.git/commondir', content: '../cfg\n' }, 'commondir'),
        ),
        reply(toolCall('shell', { command: 'git status' }, 'status')),
        done,
      ]);
      await withAgentWorker(bed.harness(), async (harness) => {
        await gitRepo(harness.workspace);
        const outcome = await runToEnd(harness, fake, { task, toolApproval: { alwaysApproved: [{ tool: 'shell', command: 'git status' }] }, mode: 'acceptEdits' });
        expect(outcome.asked).toEqual(['commondir']);
        expect(outputOf(outcome, 'status')).toContain('exit code 0');
      });
      expect(canary.connections()).toBe(0);
    });

    it('a commondir already in place runs no fsmonitor for a rule-allowed git status, even one whose rule grants the network', async () => {
      const task = uniqueId('commondir-left');
      fake.script(task, [reply(toolCall('shell', { command: 'git status' }, 'status')), done]);
      await withAgentWorker(bed.harness(), async (harness) => {
        const ws = harness.workspace;
        await gitRepo(ws);
        await mkdir(path.join(ws, 'cfg', 'objects', 'info'), { recursive: true });
        await mkdir(path.join(ws, 'cfg', 'refs', 'heads'), { recursive: true });
        await writeFile(path.join(ws, 'cfg', 'config'), plantedConfig(canary.port));
        await writeFile(path.join(ws, '.git', 'commondir'), '../cfg\n');
        const outcome = await runToEnd(harness, fake, { task, toolApproval: { alwaysApproved: [{ tool: 'shell', command: 'git status', network: true }] } });
        expect(outcome.asked).toEqual([]);
        expect(outputOf(outcome, 'status')).not.toContain('HIDDEN-RAN');
      });
      expect(canary.connections()).toBe(0);
    });
  });

  describe('5. a Python .pth file under .local', () => {
    const pth = (port: number) => `import socket; socket.create_connection(('127.0.0.1', ${port}), 3).close()\n`;
    const site = '.local/lib/python3.11/site-packages/zz.pth';

    it('writing it asks a person in acceptEdits; the allowed python3 -m json.tool then runs nothing', async () => {
      const task = uniqueId('pth');
      fake.script(task, [reply(toolCall('write_file', { path: site, content: pth(canary.port) }, 'plant')), reply(toolCall('shell', { command: 'python3 -m json.tool data.json' }, 'json')), done]);
      await withAgentWorker(bed.harness(), async (harness) => {
        await writeFile(path.join(harness.workspace, 'data.json'), '{"a": 1}\n');
        const outcome = await runToEnd(harness, fake, { task, toolApproval: { alwaysApproved: [{ tool: 'shell', command: 'python3 -m json.tool *' }] }, mode: 'acceptEdits' });
        expect(outcome.asked).toEqual(['plant']);
        expect(outputOf(outcome, 'json')).toContain('"a": 1');
      });
      expect(canary.connections()).toBe(0);
    });

    it('one already in the workspace is not loaded, even by a call whose rule grants the network', async () => {
      const task = uniqueId('pth-left');
      fake.script(task, [reply(toolCall('shell', { command: 'python3 -m json.tool data.json' }, 'json')), done]);
      await withAgentWorker(bed.harness(), async (harness) => {
        await mkdir(path.join(harness.workspace, path.dirname(site)), { recursive: true });
        await writeFile(path.join(harness.workspace, site), pth(canary.port));
        await writeFile(path.join(harness.workspace, 'data.json'), '{"a": 1}\n');
        const outcome = await runToEnd(harness, fake, { task, toolApproval: { alwaysApproved: [{ tool: 'shell', command: 'python3 -m json.tool *', network: true }] } });
        expect(outcome.asked).toEqual([]);
        expect(outputOf(outcome, 'json')).toContain('"a": 1');
      });
      expect(canary.connections()).toBe(0);
    });
  });

  describe('6. an MCP tool without annotations in acceptEdits', () => {
    it('parks for a person instead of running unasked', async () => {
      const task = uniqueId('mcp-accept-edits');
      fake.script(task, [reply(toolCall('mcp__probe__connect', { host: '127.0.0.1', port: canary.port }, 'pay')), done]);
      const config = path.join(await mkdtemp(path.join(tmpdir(), 'contained-config-')), 'agents.yaml');
      const server = probeServer();
      await writeFile(
        config,
        [
          'mcpServers:',
          '  probe:',
          `    command: ${JSON.stringify(server.command)}`,
          `    args: ${JSON.stringify(server.args)}`,
          '    network: true',
          'agents:',
          '  - name: payer',
          '    description: Pays.',
          '    modelTier: fast',
          '    maxIterations: 4',
          '    tools: []',
          '    mcpServers: [probe]',
          '    systemPrompt: You pay.',
          '',
        ].join('\n'),
      );
      await withAgentWorker({ ...bed.harness(), env: { AGENT_SANDBOX: 'bwrap', AGENT_CONFIG: config } }, async (harness) => {
        const outcome = await runToEnd(harness, fake, { task, agent: 'payer', mode: 'acceptEdits' });
        expect(outcome.asked).toEqual(['pay']);
      });
      expect(canary.connections()).toBe(0);
    });
  });
});
