// Each command's own HOME (issue 30): fresh, empty, private, outside the workspace, removed after the
// command whatever it left there, and never a way for the worker to delete a host file.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProcessRunner, type ProcessRunner } from '../../../../src/runtime/tools/sandbox/process-runner';
import { resolveSandboxMode } from '../../../../src/runtime/tools/sandbox/sandbox-mode';
import { ToolEnvironmentError } from '../../../../src/runtime/tools/sandbox/errors';
import { AgentDefinitionSchema } from '../../../../src/contract/agent-definition';
import { removeTempDirs, tempDir } from '../tool-test-context';
import { PERSON_APPROVED, runIn, runnerFor } from './sandbox-test-support';

describe.each(['bwrap', 'none'] as const)('a command\'s HOME (sandbox %s)', (mode) => {
  let runner: ProcessRunner;
  let workspace: string;
  let outside: string;

  beforeAll(async () => {
    runner = runnerFor(mode);
    workspace = await tempDir('home-ws-');
    outside = await tempDir('home-outside-');
    await writeFile(path.join(outside, 'keep.txt'), 'host file\n');
  });
  afterAll(removeTempDirs);

  it('is fresh, empty and private (0700) for every call, and gone when it ends, whatever the command left there', async () => {
    const script = [
      'echo "HOME=$HOME"',
      'ls -A "$HOME" | wc -l',
      'stat -c %a "$HOME"',
      // What a command might leave: an unreadable folder, a link to a host folder, a git config.
      'mkdir "$HOME/locked" && touch "$HOME/locked/f" && chmod 000 "$HOME/locked"',
      `ln -s ${outside} "$HOME/link"`,
      'printf "[core]\\n\\tfsmonitor = touch PWNED\\n" > "$HOME/.gitconfig"',
    ].join('; ');
    const first = await runIn(runner, workspace, script, { permission: PERSON_APPROVED });
    const [homeLine, count, mode_] = first.output.trim().split('\n');
    const home = homeLine!.slice('HOME='.length);
    expect(home).toMatch(/\/agent-home-[^/]+$/);
    expect(home.startsWith(workspace)).toBe(false);
    expect(count).toBe('0');
    expect(mode_).toBe('700');
    expect(existsSync(home)).toBe(false);
    // The link was removed, not followed.
    expect(await readFile(path.join(outside, 'keep.txt'), 'utf8')).toBe('host file\n');
    const second = await runIn(runner, workspace, 'echo "$HOME"; ls -A "$HOME"', { permission: PERSON_APPROVED });
    expect(second.output.trim()).not.toBe(home);
    expect(second.output.trim().split('\n')).toHaveLength(1);
  });

  it('is not readable by anyone but the command', async () => {
    const result = await runIn(runner, workspace, 'stat -c "%U %a" "$HOME"', { permission: PERSON_APPROVED });
    const [owner, perms] = result.output.trim().split(' ');
    expect(perms).toBe('700');
    expect(owner).toBe(process.getuid?.() === 0 ? 'nobody' : userInfo().username);
  });
});

describe('the variables tool processes may see', () => {
  it('refuse one that loads code, at worker start, naming it and saying what to do', () => {
    const build = () => createProcessRunner({ mode: resolveSandboxMode({ AGENT_SANDBOX: 'none' }), envAllowList: ['LD_PRELOAD', 'NODE_OPTIONS', 'LANG'], sourceEnv: {} });
    expect(build).toThrow(ToolEnvironmentError);
    expect(build).toThrow(/AGENT_TOOL_ENV\) names LD_PRELOAD, NODE_OPTIONS: they make programs load or run code before they start/);
  });

  it('refuse one in an agent\'s env when the definition is read', () => {
    const agent = { name: 'a', description: 'a', modelTier: 'fast', tools: [], systemPrompt: 'x', maxIterations: 1 };
    expect(AgentDefinitionSchema.safeParse({ ...agent, env: ['NPM_TOKEN'] }).success).toBe(true);
    const refused = AgentDefinitionSchema.safeParse({ ...agent, env: ['NPM_TOKEN', 'BASH_ENV'] });
    expect(refused.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['env', expect.stringMatching(/^env names BASH_ENV: it makes programs load or run code/)]]);
  });
});
