// One shell, analyzed and run: commands run in bash (the grammar the approval analyzer reads), never
// /bin/sh, in both sandbox modes. On Debian /bin/sh is dash, which reads these words differently.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
