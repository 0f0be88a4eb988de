import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { listFilesTool } from '../../../../src/runtime/tools/builtin/list-files';
import { OutputLimits } from '../../../../src/runtime/tools/output-limits';
import { removeTempDirs, tempDir, toolContext } from '../tool-test-context';

describe('list_files', () => {
  let root: string;
  const list = (input: Parameters<typeof listFilesTool.execute>[0]) => listFilesTool.execute(input, toolContext(root));

  beforeEach(async () => {
    root = await tempDir();
    await mkdir(path.join(root, 'src/lib'), { recursive: true });
    await mkdir(path.join(root, 'node_modules/pkg'), { recursive: true });
    await writeFile(path.join(root, 'README.md'), '# hi');
    await writeFile(path.join(root, 'src/index.ts'), '');
    await writeFile(path.join(root, 'src/lib/util.ts'), '');
    await writeFile(path.join(root, 'node_modules/pkg/index.js'), '');
  });
  afterAll(removeTempDirs);

  // Entries come sorted by name (localeCompare: case-insensitive), so listings are stable between calls.
  it('lists one folder, marking sub-folders with a slash', async () => {
    const result = await list({});
    expect(result.output.split('\n')).toEqual(['node_modules/', 'README.md', 'src/']);
    expect((await list({ path: 'src' })).output.split('\n')).toEqual(['src/index.ts', 'src/lib/']);
  });

  it('descends with recursive, but not into node_modules', async () => {
    const lines = (await list({ recursive: true })).output.split('\n');
    expect(lines).toEqual(['node_modules/', 'README.md', 'src/', 'src/index.ts', 'src/lib/', 'src/lib/util.ts']);
  });

  it('stops a long listing at the cap and says how to see more', async () => {
    const many = path.join(root, 'many');
    await mkdir(many);
    await Promise.all(Array.from({ length: OutputLimits.maxListEntries + 5 }, (_, i) => writeFile(path.join(many, `f${i}.txt`), '')));
    const lines = (await list({ path: 'many' })).output.split('\n');
    expect(lines).toHaveLength(OutputLimits.maxListEntries + 1);
    expect(lines.at(-1)).toMatch(/listing stopped at 300 entries/);
  });

  it('reports a missing path or a file as an error instead of an empty folder', async () => {
    expect(await list({ path: 'nowhere' })).toMatchObject({ success: false, output: expect.stringMatching(/^Not found: nowhere/) });
    expect(await list({ path: 'README.md' })).toMatchObject({ success: false, output: expect.stringMatching(/is a file, not a folder; use read_file/) });
  });

  it('says so for an empty folder', async () => {
    await mkdir(path.join(root, 'empty'));
    expect((await list({ path: 'empty' })).output).toBe('(empty folder)');
  });
});
