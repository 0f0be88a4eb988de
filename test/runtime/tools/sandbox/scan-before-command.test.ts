// What the worker walks before a command (protected-sweep.ts), through the shell tool, the real
// bwrap and a root worker whose commands run as nobody: which calls need the walk, what a call gets
// when the workspace is past AGENT_SCAN_MAX_ENTRIES, and the heartbeats the walk sends.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CommandLimitsSchema } from '../../../../src/contract/command-limits';
import type { ToolPermission } from '../../../../src/contract/tool-permission';
import { parseWorkerSettings } from '../../../../src/runtime/config/worker-settings';
import { shellTool } from '../../../../src/runtime/tools/builtin/shell';
import { runnerForAgent } from '../../../../src/runtime/tools/sandbox/agent-runner';
import type { ProcessRunner } from '../../../../src/runtime/tools/sandbox/process-runner';
import { PROGRESS_EVERY } from '../../../../src/runtime/tools/sandbox/workspace-scan';
import { toolProcessRunner } from '../../../../src/runtime/worker-setup/tool-process-runner';
import { removeTempDirs, tempDir, toolContext } from '../tool-test-context';
import { PERSON_APPROVED, RULE_READS, RULE_WRITES } from './sandbox-test-support';

const CAP = 50;

/** A git repository the worker (root) made, with `folders` empty folders and a file of mode 0644. */
async function project(folders: number): Promise<string> {
  const workspace = await tempDir('scan-cmd-ws-');
  expect(spawnSync('git', ['init', '-q', workspace]).status).toBe(0);
  await mkdir(path.join(workspace, 'many'));
  for (let i = 0; i < folders; i += 1) await mkdir(path.join(workspace, 'many', `d${i}`));
  await writeFile(path.join(workspace, 'by-root.txt'), 'made by the worker\n');
  return workspace;
}

describe('the walk before a command (bwrap, root worker)', () => {
  let runner: ProcessRunner;
  let warnings: string[];

  beforeAll(() => {
    // The cap comes from the worker's settings, as a deployment sets it.
    runner = toolProcessRunner(parseWorkerSettings({ AGENT_AUDIT_LOG: 'off', AGENT_AUDIT_HEAD_DIR: '/var/tmp/heads', AGENT_SANDBOX: 'bwrap', PATH: process.env.PATH, AGENT_SCAN_MAX_ENTRIES: String(CAP) }));
  });
  afterAll(removeTempDirs);

  async function shell(workspace: string, command: string, permission: ToolPermission, heartbeat = vi.fn()) {
    const processes = runnerForAgent(runner, { env: [], limits: CommandLimitsSchema.parse({}) });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      return await shellTool.execute({ command, timeoutSeconds: 30 }, toolContext(workspace, undefined, { processes, permission, heartbeat }));
    } finally {
      warnings = warn.mock.calls.map((args) => String(args[0]));
      warn.mockRestore();
    }
  }

  it('runs a command that only reads without walking the workspace, however large it is', async () => {
    const workspace = await project(4 * CAP);
    const result = await shell(workspace, 'ls many | wc -l && git status --short', RULE_READS);
    expect(result).toMatchObject({ success: true, output: `exit code 0\n${4 * CAP}\n?? by-root.txt\n` });
    // Not walked: only the workspace and its .git were handed to the sandbox user (git trusts the repository).
    expect(lstatSync(path.join(workspace, 'by-root.txt')).uid).toBe(0);
    expect(lstatSync(path.join(workspace, '.git', 'config')).uid).toBe(0);
    for (const entry of ['', '.git']) expect(lstatSync(path.join(workspace, entry)).uid).toBe(65534);
  });

  // Written first and seen failing: the call ran after an unbounded walk.
  it('refuses a command a rule let write when the workspace is past the cap, and says why and what to do', async () => {
    const workspace = await project(4 * CAP);
    const result = await shell(workspace, 'touch ran.txt', RULE_WRITES);
    expect(result.success).toBe(false);
    expect(result.output).toMatch(new RegExp(`^The workspace has more than ${CAP} entries \\(files, folders and links\\), so this command was not run\\.`));
    expect(result.output).toContain('AGENT_SCAN_MAX_ENTRIES');
    expect(existsSync(path.join(workspace, 'ran.txt'))).toBe(false);
  });

  it('still keeps protected paths read-only for a command a rule let write under the cap', async () => {
    // git init makes some 25 entries, well under the cap.
    const workspace = await project(5);
    const result = await shell(workspace, 'touch ran.txt; echo x >> .git/config || echo refused', RULE_WRITES);
    expect(result.output).toContain('refused');
    expect(existsSync(path.join(workspace, 'ran.txt'))).toBe(true);
    // The walk handed the workspace to the sandbox user, so the command could write there.
    expect(lstatSync(path.join(workspace, 'by-root.txt')).uid).toBe(65534);
  });

  // Seen failing: the folder bwrap made to mount an empty .git/info was reported as the command's.
  it('leaves nothing of its own in a .git folder for the sweep to blame on the command', async () => {
    const workspace = await project(0);
    await rm(path.join(workspace, '.git', 'info'), { recursive: true });
    const result = await shell(workspace, '[ -e .git/info ] || mkdir .git/info || echo refused', RULE_WRITES);
    // .git is bound read-only whole; the call succeeds (nothing was removed after it, nothing blamed).
    expect(result.success, result.output).toBe(true);
    expect(result.output).toMatch(/^exit code 0\nmkdir: cannot create directory .\.git\/info.: Read-only file system\nrefused\n$/);
    expect(existsSync(path.join(workspace, '.git', 'info'))).toBe(false);
  });

  it('runs a command a person approved past the cap, as approved, and the worker logs what it did not hand over', async () => {
    const workspace = await project(4 * CAP);
    const result = await shell(workspace, 'rm -rf many && echo cleaned', PERSON_APPROVED);
    expect(result).toMatchObject({ success: true, output: 'exit code 0\ncleaned\n' });
    expect(existsSync(path.join(workspace, 'many'))).toBe(false);
    expect(warnings.join('\n')).toContain(`has more than ${CAP} entries (AGENT_SCAN_MAX_ENTRIES); a command a person approved runs without the rest of it handed to uid 65534`);
  });

  it('heartbeats the activity while it walks, before the command and after it', async () => {
    const big = toolProcessRunner(parseWorkerSettings({ AGENT_AUDIT_LOG: 'off', AGENT_AUDIT_HEAD_DIR: '/var/tmp/heads', AGENT_SANDBOX: 'bwrap', PATH: process.env.PATH }));
    const workspace = await project(2 * PROGRESS_EVERY);
    const heartbeat = vi.fn();
    const processes = runnerForAgent(big, { env: [], limits: CommandLimitsSchema.parse({}) });
    const result = await shellTool.execute({ command: 'true' }, toolContext(workspace, undefined, { processes, permission: RULE_WRITES, heartbeat }));
    expect(result.success, result.output).toBe(true);
    const walked = heartbeat.mock.calls.map(([details]) => details).filter((d) => d !== undefined);
    // Once per PROGRESS_EVERY entries in the walk before the command, and again in the sweep after it.
    expect(walked).toEqual([1, 2, 1, 2].map((n) => ({ workspaceEntriesWalked: n * PROGRESS_EVERY })));
  });
});
