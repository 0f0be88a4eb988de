import { chmod, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxUnavailableError } from '../../../../src/contract/errors';
import { resolveSandboxMode, sandboxWarning } from '../../../../src/runtime/tools/sandbox/sandbox-mode';
import { removeTempDirs, tempDir } from '../tool-test-context';

/** A PATH holding only a `bwrap` that fails like one on a host without user namespaces. */
async function pathWithBrokenBwrap(): Promise<string> {
  const dir = await tempDir('fake-bwrap-');
  const fake = path.join(dir, 'bwrap');
  await writeFile(fake, '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n');
  await chmod(fake, 0o755);
  return dir;
}

describe('resolveSandboxMode', () => {
  afterAll(removeTempDirs);

  it('uses the bwrap found on PATH when AGENT_SANDBOX is unset and its smoke test passes', () => {
    const mode = resolveSandboxMode({ PATH: process.env.PATH });
    expect(mode).toEqual({ mode: 'bwrap', bwrapPath: expect.stringMatching(/\/bwrap$/) });
    expect(sandboxWarning(mode)).toBeUndefined();
  });

  it('falls back to none, saying how to install bwrap, when it is unset and no bwrap is on PATH', async () => {
    const mode = resolveSandboxMode({ PATH: await tempDir('empty-path-') });
    expect(mode).toEqual({ mode: 'none', reason: expect.stringContaining('apt-get install bubblewrap') });
    expect(sandboxWarning(mode)).toMatch(/^tool commands run UNSANDBOXED: bwrap was not found/);
  });

  it('throws SandboxUnavailableError for AGENT_SANDBOX=bwrap when no bwrap is on PATH', async () => {
    const env = { AGENT_SANDBOX: 'bwrap', PATH: await tempDir('empty-path-') };
    expect(() => resolveSandboxMode(env)).toThrow(SandboxUnavailableError);
    expect(() => resolveSandboxMode(env)).toThrow(/no bwrap binary is on PATH.*apt-get install bubblewrap/);
  });

  it('never downgrades a bwrap that fails its smoke test, whether chosen explicitly or by default', async () => {
    const PATH = await pathWithBrokenBwrap();
    for (const env of [{ PATH }, { PATH, AGENT_SANDBOX: 'bwrap' }]) {
      expect(() => resolveSandboxMode(env)).toThrow(SandboxUnavailableError);
      expect(() => resolveSandboxMode(env)).toThrow(/No permissions to create new namespace.*AGENT_SANDBOX=none/s);
    }
  });

  it('runs unsandboxed only when AGENT_SANDBOX=none says so, and warns about it', () => {
    const mode = resolveSandboxMode({ AGENT_SANDBOX: 'none', PATH: process.env.PATH });
    expect(mode).toEqual({ mode: 'none', reason: 'AGENT_SANDBOX=none was set' });
    expect(sandboxWarning(mode)).toMatch(/^tool commands run UNSANDBOXED: AGENT_SANDBOX=none was set/);
  });

  it('rejects any other value, naming the allowed ones', () => {
    expect(() => resolveSandboxMode({ AGENT_SANDBOX: 'docker' })).toThrow(SandboxUnavailableError);
    expect(() => resolveSandboxMode({ AGENT_SANDBOX: 'docker' })).toThrow('use one of: bwrap, none');
  });
});
