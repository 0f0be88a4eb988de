import { access, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { WorkflowBundle } from '@temporalio/worker';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceEscapeError } from '../../../src/contract/errors';
import { listFilesTool } from '../../../src/runtime/tools/builtin/list-files';
import { readFileTool } from '../../../src/runtime/tools/builtin/read-file';
import { searchFilesTool } from '../../../src/runtime/tools/builtin/search-files';
import { writeFileTool } from '../../../src/runtime/tools/builtin/write-file';
import { resolveInWorkspace } from '../../../src/runtime/tools/workspace';
import { bundleAgentWorkflows, withAgentWorker } from '../../support/agent-run-harness';
import { reply, startFakeAnthropic, toolCall, type FakeAnthropic } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';
import { removeTempDirs, tempDir, toolContext } from './tool-test-context';

afterAll(removeTempDirs);

describe('resolveInWorkspace', () => {
  let root: string;
  let outside: string;

  beforeEach(async () => {
    root = await tempDir();
    outside = await tempDir('outside-');
    await writeFile(path.join(outside, 'secret.txt'), 'SECRET from outside\n');
    await mkdir(path.join(root, 'docs'));
    await writeFile(path.join(root, 'docs/readme.md'), 'inside\n');
  });

  const refused = (requested: string) => {
    expect(() => resolveInWorkspace(root, requested)).toThrow(WorkspaceEscapeError);
    try {
      resolveInWorkspace(root, requested);
    } catch (error) {
      return (error as Error).message;
    }
    return '';
  };

  it('resolves relative paths inside the root, including ones that do not exist yet', () => {
    expect(resolveInWorkspace(root, 'docs/readme.md')).toBe(path.join(root, 'docs/readme.md'));
    expect(resolveInWorkspace(root, 'docs/../docs/new/file.md')).toBe(path.join(root, 'docs/new/file.md'));
    expect(resolveInWorkspace(root, '.')).toBe(root);
    expect(resolveInWorkspace(root, path.join(root, 'docs'))).toBe(path.join(root, 'docs'));
  });

  it('accepts names that merely start with two dots', () => {
    expect(resolveInWorkspace(root, '..notes')).toBe(path.join(root, '..notes'));
    expect(resolveInWorkspace(root, 'docs/..hidden/x')).toBe(path.join(root, 'docs/..hidden/x'));
  });

  it('refuses an absolute path outside the root', () => {
    expect(refused('/etc/passwd')).toMatch(/Path "\/etc\/passwd" is outside the workspace/);
    expect(refused(path.join(outside, 'secret.txt'))).toMatch(/outside the workspace/);
  });

  it('refuses ".." that leaves the root, however it is spelled', () => {
    expect(refused('..')).toMatch(/outside the workspace/);
    expect(refused('../../etc/passwd')).toMatch(/without "\.\." leaving it/);
    expect(refused('docs/../../x')).toMatch(/outside the workspace/);
    // A sibling folder whose name starts with the root's name is still outside.
    expect(refused(`../${path.basename(root)}-evil/x`)).toMatch(/outside the workspace/);
  });

  it('refuses a symlink inside the workspace that points outside, and paths through it', async () => {
    await symlink(outside, path.join(root, 'link-dir'));
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link-file'));
    expect(refused('link-dir')).toMatch(/resolves through a symbolic link to .*outside the workspace/);
    expect(refused('link-dir/secret.txt')).toMatch(/symbolic link/);
    expect(refused('link-dir/new/file.txt')).toMatch(/symbolic link/);
    expect(refused('link-file')).toMatch(/symbolic link/);
  });

  it('refuses a dangling symlink that points outside, which a write would follow', async () => {
    await symlink(path.join(outside, 'created-by-agent.txt'), path.join(root, 'dangling'));
    expect(refused('dangling')).toMatch(/symbolic link/);
    expect(refused('dangling/sub/file.txt')).toMatch(/symbolic link/);
  });

  it('accepts a symlink that stays inside the workspace', async () => {
    await symlink(path.join(root, 'docs'), path.join(root, 'docs-link'));
    expect(resolveInWorkspace(root, 'docs-link/readme.md')).toBe(path.join(root, 'docs/readme.md'));
  });
});

describe('built-in tools in a workspace', () => {
  let root: string;
  let outside: string;
  const context = () => toolContext(root);

  beforeEach(async () => {
    root = await tempDir();
    outside = await tempDir('outside-');
    await writeFile(path.join(outside, 'secret.txt'), 'SECRET from outside\n');
    await symlink(outside, path.join(root, 'link-dir'));
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link-file'));
  });

  it('refuse to read outside it by absolute path, "..", or symlink', async () => {
    for (const requested of ['/etc/passwd', '../../etc/passwd', 'link-dir/secret.txt', 'link-file']) {
      await expect(readFileTool.execute({ path: requested }, context())).rejects.toThrow(WorkspaceEscapeError);
    }
  });

  it('refuse to write outside it, also through a dangling symlink', async () => {
    await symlink(path.join(outside, 'planted.txt'), path.join(root, 'dangling'));
    for (const requested of [path.join(outside, 'x.txt'), '../x.txt', 'link-dir/x.txt', 'dangling']) {
      await expect(writeFileTool.execute({ path: requested, content: 'pwned' }, context())).rejects.toThrow(WorkspaceEscapeError);
    }
    await expect(access(path.join(outside, 'planted.txt'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('SECRET from outside\n');
  });

  it('refuse to list or search a folder outside it', async () => {
    await expect(listFilesTool.execute({ path: 'link-dir' }, context())).rejects.toThrow(WorkspaceEscapeError);
    await expect(searchFilesTool.execute({ query: 'SECRET', path: '..' }, context())).rejects.toThrow(WorkspaceEscapeError);
  });

  it('do not follow symlinks out of it when walking the workspace', async () => {
    await writeFile(path.join(root, 'own.txt'), 'SECRET kept inside\n');
    const search = await searchFilesTool.execute({ query: 'SECRET' }, context());
    expect(search.output).toBe('1 match(es):\nown.txt:1: SECRET kept inside');
    const listing = await listFilesTool.execute({ recursive: true }, context());
    expect(listing.output).not.toContain('secret.txt');
  });
});

describe('a run whose model asks for a path outside the workspace', () => {
  let fake: FakeAnthropic;
  let workflowBundle: WorkflowBundle;

  beforeAll(async () => {
    [fake, workflowBundle] = await Promise.all([startFakeAnthropic(), bundleAgentWorkflows()]);
  });
  afterAll(() => fake.close());

  it('gets an error tool result saying why, and still completes', async () => {
    const task = uniqueId('escape');
    fake.script(task, [
      reply(toolCall('read_file', { path: '../../etc/passwd' })),
      reply(toolCall('complete_task', { summary: 'could not read it', status: 'blocked' })),
    ]);
    const result = await withAgentWorker({ fake, workflowBundle }, async ({ start }) => (await start({ agent: 'reader', task })).result());
    expect(result).toMatchObject({ status: 'completed', completion: { status: 'blocked' } });
    const toolResult = fake.requestsFor(task)[1]?.body.messages.at(-1)?.content;
    expect(toolResult).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_0_0',
        is_error: true,
        content: expect.stringMatching(/^Path "\.\.\/\.\.\/etc\/passwd" is outside the workspace .*without "\.\." leaving it/),
      },
    ]);
    expect(JSON.stringify(toolResult)).not.toContain('root:');
    expect(fake.errors).toEqual([]);
  });
});
