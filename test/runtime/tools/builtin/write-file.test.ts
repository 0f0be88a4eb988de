import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { writeFileTool } from '../../../../src/runtime/tools/builtin/write-file';
import { removeTempDirs, tempDir, toolContext } from '../tool-test-context';

describe('write_file', () => {
  let root: string;
  const write = (input: Parameters<typeof writeFileTool.execute>[0]) => writeFileTool.execute(input, toolContext(root));

  beforeEach(async () => {
    root = await tempDir();
  });
  afterAll(removeTempDirs);

  it('writes a file, creating its parent folders', async () => {
    const result = await write({ path: 'deep/er/notes.md', content: 'hello' });
    expect(result).toEqual({ success: true, shouldContinue: true, output: 'Wrote 5 characters to deep/er/notes.md' });
    expect(await readFile(path.join(root, 'deep/er/notes.md'), 'utf8')).toBe('hello');
  });

  it('replaces a file unless append is set', async () => {
    await write({ path: 'log.txt', content: 'one\n' });
    await write({ path: 'log.txt', content: 'two\n', append: true });
    expect(await readFile(path.join(root, 'log.txt'), 'utf8')).toBe('one\ntwo\n');
    await write({ path: 'log.txt', content: 'three\n' });
    expect(await readFile(path.join(root, 'log.txt'), 'utf8')).toBe('three\n');
  });

  it('derives an object JSON Schema from its zod schema for the model', () => {
    expect(writeFileTool.jsonSchema).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' }, append: { type: 'boolean' } },
      required: ['path', 'content'],
    });
  });
});
