// One shell, analyzed and run: commands run in bash (the grammar the approval analyzer reads), never
// /bin/sh, in both sandbox modes. On Debian /bin/sh is dash, which reads these words differently.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ShellMissingError } from '../../../../src/runtime/tools/sandbox/errors';
import { shellLauncher } from '../../../../src/runtime/tools/sandbox/liveness-gate';
import { removeTempDirs, tempDir } from '../tool-test-context';
import { PERSON_APPROVED, runIn, runnerFor } from './sandbox-test-support';

describe.each(['bwrap', 'none'] as const)('the shell in mode %s', (mode) => {
  const runner = runnerFor(mode);
  afterAll(removeTempDirs);

  it('is bash without start-up files', async () => {
    const workspace = await tempDir('shell-ws-');
    // A .bashrc or BASH_ENV in the workspace (HOME) must not run.
    await writeFile(path.join(workspace, '.bashrc'), 'echo RC-RAN\n');
    await writeFile(path.join(workspace, '.profile'), 'echo PROFILE-RAN\n');
    const result = await runIn(runner, workspace, 'echo "$BASH_VERSION" | grep -c . ; [[ -n x ]] && echo double-brackets; printf "%s\\n" $\'a\\x41\'', {
      permission: PERSON_APPROVED,
    });
    expect(result).toMatchObject({ exitCode: 0, output: '1\ndouble-brackets\naA\n' });
  });

  it("reads $'...' as bash does, so the analyzer's view holds (issue 18, bypass 1)", async () => {
    const workspace = await tempDir('shell-ws-');
    await writeFile(path.join(workspace, 'canary'), 'alive');
    const command = "git status >$'\\' ; rm -f canary ; touch PWNED ; git status >$'\\'";
    await runIn(runner, workspace, command, { permission: PERSON_APPROVED });
    expect(existsSync(path.join(workspace, 'canary'))).toBe(true);
    expect(existsSync(path.join(workspace, 'PWNED'))).toBe(false);
  });
});

describe('shellLauncher', () => {
  afterAll(removeTempDirs);

  it('starts bash without start-up files, the command and its limits as arguments (never in the script)', () => {
    const argv = shellLauncher()('echo "$HOME"', 'ulimit -t 1');
    expect(argv.slice(0, 4)).toEqual([expect.stringMatching(/\/bash$/), '--noprofile', '--norc', '-c']);
    expect(argv.slice(-3)).toEqual(['agent-tool', 'echo "$HOME"', 'ulimit -t 1']);
  });

  it('fails every command with ShellMissingError when there is no bash, rather than using /bin/sh', async () => {
    const launch = shellLauncher(await tempDir('no-bash-'));
    expect(() => launch('true', '')).toThrow(ShellMissingError);
    expect(() => launch('true', '')).toThrow(/never fall back to \/bin\/sh/);
  });
});
