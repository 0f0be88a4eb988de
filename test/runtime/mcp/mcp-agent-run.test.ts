// An agent defined in a YAML file (AGENT_CONFIG) whose tools come from a real MCP server (the notes
// server of ./support, over stdio), run on the real Temporal server with the model faked over HTTP:
// the read tool runs without asking, the destructive one parks and runs once after approval, a server
// that crashes mid-call is an error result the run survives, and `agentctl agents` lists it all.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fetchAgentCatalog } from '../../../src/client/agent-catalog';
import { renderCatalog } from '../../../src/cli/commands/agents';
import { approvalSignal } from '../../../src/contract/agent-run-api';
import { toolResultsIn, waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, text, toolCall } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';
import { agentctl } from '../../client/agentctl-process';
import { CRASH_LOG, DELETED_LOG } from './support/notes-server';
import { stdioNotesServer } from './support/notes-server-config';

const bed = useAgentTestbed();
const fake = bed.fake;

async function configFor(notes: string): Promise<string> {
  const server = stdioNotesServer(notes);
  const file = path.join(notes, '..', `agents-${path.basename(notes)}.yaml`);
  await writeFile(
    file,
    [
      'mcpServers:',
      '  notes:',
      `    command: ${JSON.stringify(server.command)}`,
      `    args: ${JSON.stringify(server.args)}`,
      `    folders: ${JSON.stringify(server.folders)}`,
      'agents:',
      '  - name: notes-keeper',
      '    description: Keeps the notes.',
      '    modelTier: fast',
      '    maxIterations: 6',
      '    tools: []',
      '    mcpServers: [notes]',
      '    systemPrompt: You keep the notes tidy.',
      '    approval:',
      '      scopes: { read: allow, write: approve, execute: approve }',
      '',
    ].join('\n'),
  );
  return file;
}

describe('an agent from AGENT_CONFIG with an MCP server', () => {
  it('reads without asking, parks the destructive tool until approved, survives a crashed server, and completes', async () => {
    const notes = await mkdtemp(path.join(tmpdir(), 'notes-run-'));
    await writeFile(path.join(notes, 'todo.md'), 'buy milk');
    const task = uniqueId('mcp-run');
    fake.script(task, [
      reply(text('Reading, then deleting.'), toolCall('mcp__notes__read_note', { name: 'todo.md' }, 'read1'), toolCall('mcp__notes__delete_note', { name: 'todo.md' }, 'del1')),
      reply(toolCall('mcp__notes__crash', {}, 'crash1')),
      reply(toolCall('complete_task', { summary: 'Read and deleted todo.md', status: 'success' })),
    ]);
    const harness = { ...bed.harness(), env: { AGENT_CONFIG: await configFor(notes) } };
    const { result, catalog, taskQueue } = await withAgentWorker(harness, async ({ start, client, taskQueue }) => {
      const handle = await start({ agent: 'notes-keeper', task });
      const parked = await waitForApprovals(handle, 1, 30_000);
      expect(parked.pendingApprovals.map((p) => [p.tool, p.callId])).toEqual([['mcp__notes__delete_note', 'del1']]);
      // Only the destructive call asks; the read is allowed (it runs in order, after the delete is decided).
      expect(existsSync(path.join(notes, 'todo.md'))).toBe(true);
      await handle.signal(approvalSignal, { callId: 'del1', decision: 'approve', approver: 'ann' });
      const result = await handle.result();
      // `agentctl agents`, the real CLI, lists the agent with its MCP tools.
      const listed = await agentctl(['agents'], { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue });
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(/notes-keeper: Keeps the notes\./);
      expect(listed.stdout).toMatch(/mcp__notes__read_note\s+read\s+mcp\n/);
      return { result, catalog: await fetchAgentCatalog(client, taskQueue), taskQueue };
    });
    expect(result.status).toBe('completed');
    expect(result.completion?.summary).toBe('Read and deleted todo.md');

    const [, second, third] = fake.requestsFor(task);
    expect(second!.body.tools!.map((t) => (t as { name: string }).name)).toEqual(expect.arrayContaining(['mcp__notes__read_note', 'mcp__notes__delete_note', 'mcp__notes__crash']));
    const afterFirst = toolResultsIn(second);
    expect(afterFirst.map((r) => [r.tool_use_id, r.content, r.is_error ?? false])).toEqual([
      ['read1', 'buy milk', false],
      ['del1', 'Deleted todo.md.', false],
    ]);
    // At most once: the destructive tool ran exactly one time.
    expect(await readFile(path.join(notes, DELETED_LOG), 'utf8')).toBe('todo.md\n');
    const [crashed] = toolResultsIn(third);
    expect(crashed).toMatchObject({ tool_use_id: 'crash1', is_error: true });
    expect(crashed!.content).toMatch(/MCP server "notes" failed during the call/);
    expect(await readFile(path.join(notes, CRASH_LOG), 'utf8')).toMatch(/^\d+\n$/);

    // `agentctl agents`: what this worker serves, with the MCP tools and their scopes.
    expect(catalog.taskQueue).toBe(taskQueue);
    expect(catalog.configFile).toBe(harness.env.AGENT_CONFIG);
    const keeper = catalog.agents.find((a) => a.name === 'notes-keeper')!;
    expect(keeper.tools.filter((t) => t.source === 'mcp').map((t) => [t.name, t.scope])).toEqual([
      ['mcp__notes__read_note', 'read'],
      ['mcp__notes__delete_note', 'execute'],
      ['mcp__notes__crash', 'read'],
    ]);
    expect(catalog.agents.map((a) => a.name)).toEqual(['notes-keeper']);
    expect(renderCatalog(catalog)).toMatch(/mcp__notes__delete_note\s+execute\s+mcp, runs at most once/);
    expect(catalog.mcpServers[0]).toMatchObject({ name: 'notes', transport: 'stdio' });
  });
});
