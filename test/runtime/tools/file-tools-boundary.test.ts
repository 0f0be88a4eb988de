// The file tools against the workspace tricks of issue 18: a symlink into another run's folder
// (bypass 7), hard links to files elsewhere (bypass 9), FIFOs and other special files, protected
// paths written without a person, and ownership of what a tool creates.
import { execFileSync } from 'node:child_process';
import { access, link, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceEscapeError } from '../../../src/contract/errors';
import { listFilesTool } from '../../../src/runtime/tools/builtin/list-files';
import { readFileTool } from '../../../src/runtime/tools/builtin/read-file';
import { searchFilesTool } from '../../../src/runtime/tools/builtin/search-files';
import { writeFileTool } from '../../../src/runtime/tools/builtin/write-file';
import type { ToolResult } from '../../../src/contract/tool-result';
import { removeTempDirs, tempDir, toolContext } from './tool-test-context';

afterAll(removeTempDirs);

/** A tool call's outcome as text: its output, or the message it was refused with. */
async function outcome(call: Promise<ToolResult>): Promise<{ ok: boolean; text: string }> {
  try {
    const result = await call;
    return { ok: result.success, text: result.output };
  } catch (error) {
    return { ok: false, text: (error as Error).message };
  }
}

describe('file tools in a shared run beside per-run folders (bypass 7)', () => {
  let root: string;
  let other: string;
  const shared = () => toolContext(root, undefined, { hiddenPaths: [path.join(root, 'runs')] });

  beforeEach(async () => {
    root = await tempDir();
    other = path.join(root, 'runs', 'other-run');
    await mkdir(other, { recursive: true });
    await writeFile(path.join(other, 'secret.txt'), 'OTHER RUN SECRET\n');
    // What `ln -s runs r` in a shared run leaves behind, and the same by absolute path.
    await symlink('runs', path.join(root, 'r'));
    await symlink(path.join(root, 'runs', 'other-run'), path.join(root, 'abs'));
  });

  it('refuses read_file through a symlink into runs/', async () => {
    for (const requested of ['r/other-run/secret.txt', 'abs/secret.txt', 'r/../runs/other-run/secret.txt']) {
      const result = await outcome(readFileTool.execute({ path: requested }, shared()));
      expect(result.ok).toBe(false);
      expect(result.text).not.toContain('OTHER RUN SECRET');
    }
    await expect(readFileTool.execute({ path: 'r/other-run/secret.txt' }, shared())).rejects.toThrow(/another run's workspace/);
  });

  it('refuses write_file through a symlink into runs/, and plants nothing there', async () => {
    for (const requested of ['r/other-run/planted.txt', 'abs/planted.txt', 'r/other-run/secret.txt', 'r/new-run/planted.txt']) {
      const result = await outcome(writeFileTool.execute({ path: requested, content: 'PWNED' }, shared()));
      expect(result).toMatchObject({ ok: false, text: expect.stringMatching(/another run's workspace/) });
    }
    await expect(access(path.join(other, 'planted.txt'))).rejects.toThrow(/ENOENT/);
    await expect(access(path.join(root, 'runs', 'new-run'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(path.join(other, 'secret.txt'), 'utf8')).toBe('OTHER RUN SECRET\n');
  });

  it('neither lists nor searches other runs through the symlink', async () => {
    expect((await outcome(listFilesTool.execute({ path: 'r' }, shared()))).ok).toBe(false);
    expect((await outcome(searchFilesTool.execute({ query: 'SECRET', path: 'r' }, shared()))).ok).toBe(false);
    const everywhere = await searchFilesTool.execute({ query: 'SECRET' }, shared());
    expect(everywhere.output).toBe('No matches for "SECRET".');
  });
});

describe('file tools and hard links (bypass 9)', () => {
  let root: string;
  let outside: string;

  beforeEach(async () => {
    root = await tempDir();
    outside = await tempDir('outside-');
    await writeFile(path.join(outside, 'host.txt'), 'HOST FILE\n');
    await link(path.join(outside, 'host.txt'), path.join(root, 'linked.txt'));
  });

  it('refuses to read a file whose other link is outside the workspace', async () => {
    const result = await outcome(readFileTool.execute({ path: 'linked.txt' }, toolContext(root)));
    expect(result).toEqual({ ok: false, text: expect.stringMatching(/"linked.txt" has 2 hard links and another of its names lies outside this run's workspace/) });
    expect((await searchFilesTool.execute({ query: 'HOST' }, toolContext(root))).output).toBe('No matches for "HOST".');
    expect(await outcome(searchFilesTool.execute({ query: 'HOST', path: 'linked.txt' }, toolContext(root)))).toEqual(result);
  });

  it('refuses to write or append to it, and the linked file stays as it was', async () => {
    for (const append of [false, true]) {
      const result = await outcome(writeFileTool.execute({ path: 'linked.txt', content: 'PWNED', append }, toolContext(root)));
      expect(result).toEqual({ ok: false, text: expect.stringMatching(/has 2 hard links; writing it would also change the same file/) });
    }
    expect(await readFile(path.join(outside, 'host.txt'), 'utf8')).toBe('HOST FILE\n');
  });

  it('reads a file whose links all lie in the workspace, but still refuses to write it', async () => {
    await writeFile(path.join(root, 'a.txt'), 'both names inside\n');
    await mkdir(path.join(root, 'sub'));
    await link(path.join(root, 'a.txt'), path.join(root, 'sub', 'b.txt'));
    expect((await readFileTool.execute({ path: 'sub/b.txt' }, toolContext(root))).output).toContain('both names inside');
    expect((await outcome(writeFileTool.execute({ path: 'a.txt', content: 'x' }, toolContext(root)))).ok).toBe(false);
  });

  it('refuses a shared run a file whose other link is in another run\'s folder', async () => {
    await mkdir(path.join(root, 'runs', 'other-run'), { recursive: true });
    await writeFile(path.join(root, 'runs', 'other-run', 'secret.txt'), 'OTHER RUN SECRET\n');
    await link(path.join(root, 'runs', 'other-run', 'secret.txt'), path.join(root, 'copy.txt'));
    const shared = toolContext(root, undefined, { hiddenPaths: [path.join(root, 'runs')] });
    const result = await outcome(readFileTool.execute({ path: 'copy.txt' }, shared));
    expect(result.ok).toBe(false);
    expect(result.text).not.toContain('OTHER RUN SECRET');
  });
});

describe('file tools and special files', () => {
  let root: string;

  beforeEach(async () => {
    root = await tempDir();
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
  });

  it('refuse a FIFO at once for reading and writing, without blocking', async () => {
    const started = Date.now();
    const read = await outcome(readFileTool.execute({ path: 'pipe' }, toolContext(root)));
    const write = await outcome(writeFileTool.execute({ path: 'pipe', content: 'x' }, toolContext(root)));
    expect(read).toEqual({ ok: false, text: '"pipe" is a FIFO (named pipe), not a regular file; file tools only open regular files.' });
    expect(write.ok).toBe(false);
    expect(Date.now() - started).toBeLessThan(2_000);
    const search = await searchFilesTool.execute({ query: 'x' }, toolContext(root));
    expect(search.output).toBe('No matches for "x".');
    expect(await outcome(searchFilesTool.execute({ query: 'x', path: 'pipe' }, toolContext(root)))).toEqual({ ok: false, text: read.text });
  });

  it('refuse a socket, and a symlink to a device outside the workspace', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(root, 'sock'), resolve));
    try {
      expect((await outcome(readFileTool.execute({ path: 'sock' }, toolContext(root)))).text).toMatch(/is a socket, not a regular file/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    await symlink('/dev/zero', path.join(root, 'zero'));
    await expect(readFileTool.execute({ path: 'zero' }, toolContext(root))).rejects.toThrow(WorkspaceEscapeError);
  });
});

describe('write_file and protected paths', () => {
  let root: string;

  beforeEach(async () => {
    root = await tempDir();
    await mkdir(path.join(root, '.git'));
    await writeFile(path.join(root, '.git', 'config'), '[core]\n');
    await symlink('.git', path.join(root, 'g'));
  });

  it('refuses a protected path, also spelled through a symlink, unless a person approved the call', async () => {
    const byRule = toolContext(root, undefined, { permission: { by: 'rule', writes: true } });
    for (const requested of ['.git/config', 'g/config', '.git/hooks/pre-commit', '.env.local', 'sub/.envrc']) {
      const result = await outcome(writeFileTool.execute({ path: requested, content: '[core]\n\tfsmonitor = "touch PWNED"\n' }, byRule));
      expect(result).toEqual({ ok: false, text: expect.stringMatching(/is a protected path .*Ask a person to approve this write_file call/) });
    }
    // Without a permission at all the call counts as a rule's.
    expect((await outcome(writeFileTool.execute({ path: '.git/config', content: 'x' }, toolContext(root)))).ok).toBe(false);
    expect(await readFile(path.join(root, '.git', 'config'), 'utf8')).toBe('[core]\n');
    await expect(access(path.join(root, '.git', 'hooks'))).rejects.toThrow(/ENOENT/);

    const byPerson = toolContext(root, undefined, { permission: { by: 'person', writes: true } });
    expect((await writeFileTool.execute({ path: 'g/config', content: '[core]\n\tbare = false\n' }, byPerson)).output).toBe('Wrote 21 characters to .git/config');
    expect(await readFile(path.join(root, '.git', 'config'), 'utf8')).toBe('[core]\n\tbare = false\n');
  });

  it('hands files and folders it creates to the configured owner', async () => {
    const owner = { uid: 65534, gid: 65534 };
    await writeFileTool.execute({ path: 'new/deep/file.txt', content: 'x' }, toolContext(root, undefined, { fileOwner: owner }));
    for (const created of ['new', 'new/deep', 'new/deep/file.txt']) {
      const info = await stat(path.join(root, created));
      expect({ uid: info.uid, gid: info.gid }).toEqual(owner);
    }
  });
});
