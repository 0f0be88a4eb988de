// The replay lab's boundary (issue 35, "Must not change"): a shadow that reaches write_file, shell and
// an MCP write tool runs none of them. Canary files in the original's workspace and the original's
// audit log are compared byte for byte and by modification time before and after: once for a replay
// of the unchanged agent (every call answered from the record) and once for a shadow that left the
// record and asks the live model, which then tries absolute paths, a shell redirection, the MCP
// server's write and a read of the audit log.
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalSignal } from '../../../src/contract/agent-run-api';
import { startRun } from '../../../src/client/start-run';
import { waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall, type FakeRequest } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';
import { FILESYSTEM_SERVER } from '../../runtime/mcp/support/server-entries';
import { fingerprint, openTestLab } from './replay-support';

const bed = useAgentTestbed();
const fake = bed.fake;
const CANARY = 'canary: nothing may change this file\n';

function config(workspace: string, systemPrompt: string): string {
  return [
    'mcpServers:',
    '  files:',
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: ${JSON.stringify([FILESYSTEM_SERVER, workspace])}`,
    'agents:',
    '  - name: canary',
    '    description: Writes files and runs commands.',
    '    modelTier: fast',
    '    maxIterations: 6',
    '    tools: [read_file, write_file, shell]',
    '    mcpServers: [files]',
    `    systemPrompt: ${JSON.stringify(systemPrompt)}`,
    '    approval:',
    '      scopes: { read: allow, write: allow, execute: approve }',
    '',
  ].join('\n');
}

describe('a shadow never runs a call with side effects', () => {
  let dir: string;
  let workspace: string;
  let auditLog: string;
  let agentFile: string;
  let changedFile: string;
  const canaries = () => ['write.txt', 'shell.txt', 'mcp.txt'].map((name) => path.join(workspace, name));
  const snapshot = async () => Promise.all([...canaries(), auditLog].map(fingerprint));

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'replay-canary-'));
    workspace = await mkdtemp(path.join(tmpdir(), 'replay-canary-ws-'));
    auditLog = path.join(dir, 'audit', 'audit.jsonl');
    agentFile = path.join(dir, 'agents.yaml');
    changedFile = path.join(dir, 'agents-changed.yaml');
    await writeFile(agentFile, config(workspace, 'You keep the files in order.'));
    await writeFile(changedFile, config(workspace, 'CHANGED: you keep the files in order, faster.'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(workspace, { recursive: true, force: true });
  });

  it('leaves the canaries and the audit log untouched, answered from the record or stubbed', async () => {
    const task = uniqueId('canary');
    const [write, shell, mcp] = canaries();
    // The recorded run writes each canary for real; the live model, once the prompt changed, tries harder.
    const recordedCalls = reply(
      toolCall('write_file', { path: 'write.txt', content: 'written by the run' }),
      toolCall('shell', { command: 'echo run >> shell.txt' }),
      toolCall('mcp__files__write_file', { path: mcp, content: 'written over MCP' }),
    );
    const hostileCalls = reply(
      toolCall('write_file', { path: write, content: 'shadow' }),
      toolCall('shell', { command: `echo shadow > ${shell}; rm -f ${JSON.stringify(auditLog)}` }),
      toolCall('mcp__files__write_file', { path: mcp, content: 'shadow over MCP' }),
      toolCall('read_file', { path: auditLog }),
      toolCall('read_file', { path: 'escape' }),
    );
    const changed = (request: FakeRequest) => JSON.stringify(request.body.system).includes('CHANGED');
    fake.script(task, [reply((request) => (changed(request) ? hostileCalls : recordedCalls)), reply(toolCall('complete_task', { summary: 'files written', status: 'success' }))]);

    const harness = { ...bed.harness(), workspace, auditLog, env: { AGENT_CONFIG: agentFile } };
    await withAgentWorker(harness, async ({ start, client }) => {
      const run = await start({ agent: 'canary', task });
      // A rule lets shell read only; a person's approval lets it write. The MCP write is destructive by
      // its annotations and asks too. Both decisions are replayed from the record.
      await waitForApprovals(run, 2);
      await run.signal(approvalSignal, { callId: 'toolu_0_1', decision: 'approve', approver: 'ana' });
      await run.signal(approvalSignal, { callId: 'toolu_0_2', decision: 'approve', approver: 'ana' });
      expect((await run.result()).status).toBe('completed');
      // The recorded run really ran each call: these are canaries a stray run would change.
      expect(await Promise.all(canaries().map((file) => readFile(file, 'utf8')))).toEqual(['written by the run', 'run\n', 'written over MCP']);
      for (const file of canaries()) await writeFile(file, CANARY);
      // A link in the workspace to the audit log: the shadow's copy keeps it a link, and reads refuse it.
      await symlink(auditLog, path.join(workspace, 'escape'));
      const before = await snapshot();
      const requestsBefore = fake.requests.length;

      const lab = await openTestLab(client, fake, { agentConfig: agentFile, sourceWorkspace: workspace, env: { AGENT_CONFIG: agentFile } });
      try {
        const same = await lab.replay(run.workflowId);
        expect(same.diverged).toBe(false);
        expect(fake.requests.length).toBe(requestsBefore);
        expect(same.wouldRun.map((w) => [w.tool, w.recorded])).toEqual([['write_file', true], ['shell', true], ['mcp__files__write_file', true]]);
        expect(await snapshot()).toEqual(before);
        // Someone with namespace access starts a run on the shadow queue: the shadow worker runs nothing for it.
        const intruder = await startRun(client, { agent: 'canary', task }, { taskQueue: lab.taskQueue, workflowId: uniqueId('intruder') });
        const outcome = await intruder.result().then(() => 'completed', (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message));
        expect(outcome).toContain('is not a shadow this replay lab follows');
        expect(await snapshot()).toEqual(before);
      } finally {
        await lab.close();
      }

      const live = await openTestLab(client, fake, { agentConfig: changedFile, sourceWorkspace: workspace, liveModel: true, decide: 'approve', env: { AGENT_CONFIG: changedFile } });
      try {
        const report = await live.replay(run.workflowId);
        expect(report.firstDivergence).toMatchObject({ iteration: 1, kind: 'model_request', what: 'the system prompt differs' });
        expect(report.modelCalls).toMatchObject({ replayed: 0, live: 2 });
        expect(report.wouldRun.map((w) => [w.tool, w.recorded])).toEqual([['write_file', false], ['shell', false], ['mcp__files__write_file', false]]);
        expect(report.wouldRun[1]!.call).toContain('rm -f');
        // The read ran, in the shadow's copy of the workspace, where the audit log is not.
        const results = fake.requestsFor(task).at(-1)!.body.messages.at(-1)!.content as { tool_use_id: string; content: string; is_error?: boolean }[];
        expect(results.map((r) => r.is_error)).toEqual([true, true, true, true, true]);
        expect(results.slice(0, 3).map((r) => r.content)).toEqual([expect.stringContaining('Not run'), expect.stringContaining('Not run'), expect.stringContaining('Not run')]);
        expect(results[3]!.content).not.toContain('"kind"');
        expect(results[4]!.content).not.toContain('"kind"');
        expect(report.completion.shadow).toMatchObject({ outcome: 'completed', summary: 'files written' });
        expect(await snapshot()).toEqual(before);
      } finally {
        await live.close();
      }
    });
  });
});
