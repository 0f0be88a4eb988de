// `agentctl approve --arguments / --edit / --all` and `agentctl mode`, run as the real binary against
// the real server (issue 23, items 1, 2 and 4).
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { statusQuery } from '../../src/contract/agent-run-api';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { waitFor, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply } from '../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../support/temporal';
import { complete, parked, shell, write } from '../workflows/approval-test-kit';
import { agentctl as runAgentctl } from './agentctl-process';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ensureTemporalCli } from '../../scripts/install-temporal.js';

/** The plain `temporal` CLI, by name, without our code; run without blocking this process's worker. */
async function temporal(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(ensureTemporalCli(), [...args, '--address', temporalAddress()], { timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? String(error) };
  }
}

const agentctl = (args: string[], env: NodeJS.ProcessEnv = {}) => runAgentctl(args, { TEMPORAL_ADDRESS: temporalAddress(), USER: 'cli-tester', ...env });

describe('agentctl approve with edits, --all, and mode', () => {
  const bed = useAgentTestbed({ agents: builtinAgents });
  const fake = bed.fake;

  it('approve --arguments runs the edited call; approve --edit takes what the person saved in $EDITOR', async () => {
    const task = uniqueId('cli-edit');
    fake.script(task, [reply(shell('touch asked.txt')), reply(write('asked.md', 'from the model')), complete()]);
    // An "editor" that rewrites the file it is given, as a person would.
    const dir = await mkdtemp(path.join(tmpdir(), 'cli-editor-'));
    const editor = path.join(dir, 'editor.sh');
    await writeFile(editor, '#!/bin/sh\nprintf \'{"path": "edited.md", "content": "from the editor"}\' > "$1"\n', { mode: 0o755 });
    await withAgentWorker(bed.harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task });
      await parked(handle);
      const bad = await agentctl(['approve', handle.workflowId, '--arguments', '{not json']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--arguments is not JSON');
      const first = await agentctl(['approve', handle.workflowId, '--arguments', '{"command": "touch edited.txt"}', '--json']);
      expect(first.stderr).toBe('');
      expect(JSON.parse(first.stdout)).toMatchObject({ callId: 'toolu_0_0', arguments: { command: 'touch edited.txt' }, applied: true });
      await waitFor(async () => ((await handle.query(statusQuery)).pendingApprovals[0]?.callId === 'toolu_1_0' ? true : undefined), 'the second call to park', 60_000);
      const second = await agentctl(['approve', handle.workflowId, '--edit'], { EDITOR: editor, VISUAL: '' });
      expect(second.code).toBe(0);
      expect((await handle.result()).status).toBe('completed');
      expect(existsSync(path.join(workspace, 'edited.txt'))).toBe(true);
      expect(existsSync(path.join(workspace, 'asked.txt'))).toBe(false);
      expect(await readFile(path.join(workspace, 'edited.md'), 'utf8')).toBe('from the editor');
      expect(existsSync(path.join(workspace, 'asked.md'))).toBe(false);
    });
  });

  it('approve --all decides every parked call in one update; mode switches the run and refuses an unknown mode', async () => {
    const task = uniqueId('cli-all');
    fake.script(task, [reply(write('a.txt'), write('b.txt'), write('c.txt')), reply(write('d.txt')), complete()]);
    await withAgentWorker(bed.harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task });
      await parked(handle, 3);
      const unknown = await agentctl(['mode', handle.workflowId, 'yolo']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('unknown mode "yolo"; modes: default, plan, acceptEdits, dontAsk');
      const mode = await agentctl(['mode', handle.workflowId, 'acceptEdits', '--json']);
      expect(JSON.parse(mode.stdout)).toMatchObject({ mode: 'acceptEdits', by: 'cli-tester', applied: true, message: 'mode switched from default to acceptEdits for the rest of the run' });
      const all = await agentctl(['approve', handle.workflowId, '--all', '--json']);
      expect(JSON.parse(all.stdout)).toMatchObject({ callIds: ['toolu_0_0', 'toolu_0_1', 'toolu_0_2'], applied: true });
      // d.txt, a write in acceptEdits mode, runs without asking.
      expect((await handle.result()).status).toBe('completed');
      for (const file of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) expect(existsSync(path.join(workspace, file))).toBe(true);
      const status = await handle.query(statusQuery);
      expect(status.decisions.filter((d) => d.via === 'update').map((d) => d.callId)).toEqual(['toolu_0_0', 'toolu_0_1', 'toolu_0_2']);
    });
  });

  it('works from the plain temporal CLI by name: setMode, and decideApprovals with an edited call', async () => {
    const task = uniqueId('plain-cli');
    fake.script(task, [reply(write('one.txt'), write('two.txt')), complete()]);
    await withAgentWorker(bed.harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task });
      await parked(handle, 2);
      const bad = await temporal('workflow', 'update', 'execute', '--workflow-id', handle.workflowId, '--name', 'setMode', '--input', '{"mode":"yolo"}');
      expect(bad.code).not.toBe(0);
      expect(bad.stderr + bad.stdout).toContain('Malformed mode switch');
      const mode = await temporal('workflow', 'update', 'execute', '--workflow-id', handle.workflowId, '--name', 'setMode', '--input', '{"mode":"plan","by":"ops"}');
      expect(mode.code, mode.stderr).toBe(0);
      const batch = JSON.stringify({ decisions: [{ callId: 'toolu_0_0', decision: 'approve' }, { callId: 'toolu_0_1', decision: 'approve', arguments: { path: 'three.txt', content: 'z' } }] });
      const decided = await temporal('workflow', 'update', 'execute', '--workflow-id', handle.workflowId, '--name', 'decideApprovals', '--input', batch);
      expect(decided.code, decided.stderr).toBe(0);
      expect((await handle.result()).status).toBe('completed');
      // Parked before the switch, decided by a person: they run even in plan mode.
      expect(existsSync(path.join(workspace, 'one.txt'))).toBe(true);
      expect(existsSync(path.join(workspace, 'three.txt'))).toBe(true);
      expect(existsSync(path.join(workspace, 'two.txt'))).toBe(false);
    });
  });
});
