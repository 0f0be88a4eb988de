// The official filesystem server in an agent run, as a worker started from AGENT_CONFIG runs it: in
// the sandbox, pointed at the workspace and (by its own arguments) at a folder outside it. A read the
// rules allow without asking cannot reach the outside file; an approved write lands in the workspace.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { approvalSignal } from '../../../src/contract/agent-run-api';
import { toolResultsIn, waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';
import { FILESYSTEM_SERVER } from './support/server-entries';

const bed = useAgentTestbed();
const fake = bed.fake;
const SECRET = 'outside the workspace';

async function configFile(dir: string, workspace: string, outside: string): Promise<string> {
  const file = path.join(dir, 'agents.yaml');
  await writeFile(
    file,
    [
      'mcpServers:',
      '  files:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: ${JSON.stringify([FILESYSTEM_SERVER, workspace, outside])}`,
      'agents:',
      '  - name: filer',
      '    description: Files reports.',
      '    modelTier: fast',
      '    maxIterations: 4',
      '    tools: []',
      '    mcpServers: [files]',
      '    systemPrompt: You file reports.',
      '    approval:',
      '      scopes: { read: allow, write: approve, execute: approve }',
      '',
    ].join('\n'),
  );
  return file;
}

describe('the filesystem MCP server in an agent run', () => {
  it('writes the approved file in the workspace, and its allowed read of a folder outside finds nothing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mcp-run-config-'));
    const workspace = await mkdtemp(path.join(tmpdir(), 'mcp-run-ws-'));
    const outside = await mkdtemp(path.join('/var/tmp', 'mcp-run-outside-'));
    await writeFile(path.join(outside, 'secret.txt'), SECRET);
    const report = path.join(workspace, 'report.md');
    const task = uniqueId('mcp-fs-run');
    fake.script(task, [
      reply(
        toolCall('mcp__files__read_text_file', { path: path.join(outside, 'secret.txt') }, 'peek'),
        toolCall('mcp__files__write_file', { path: report, content: '# Report' }, 'write'),
      ),
      reply(toolCall('complete_task', { summary: 'Filed the report', status: 'success' })),
    ]);
    try {
      const harness = { ...bed.harness(), workspace, env: { AGENT_CONFIG: await configFile(dir, workspace, outside) } };
      const result = await withAgentWorker(harness, async ({ start }) => {
        const handle = await start({ agent: 'filer', task });
        // write_file is destructive by its annotations: it asks; the read does not.
        const parked = await waitForApprovals(handle, 1, 30_000);
        expect(parked.pendingApprovals.map((p) => [p.tool, p.callId])).toEqual([['mcp__files__write_file', 'write']]);
        await handle.signal(approvalSignal, { callId: 'write', decision: 'approve', approver: 'ann' });
        return handle.result();
      });
      expect(result.status).toBe('completed');
      expect(await readFile(report, 'utf8')).toBe('# Report');
      const [peek, write] = toolResultsIn(fake.requestsFor(task)[1]);
      expect(peek).toMatchObject({ tool_use_id: 'peek', is_error: true });
      expect(peek!.content).not.toContain(SECRET);
      expect(write).toMatchObject({ tool_use_id: 'write' });
      expect(write!.is_error ?? false).toBe(false);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
