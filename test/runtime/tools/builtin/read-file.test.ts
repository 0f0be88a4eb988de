import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { readFileTool } from '../../../../src/runtime/tools/builtin/read-file';
import { OutputLimits } from '../../../../src/runtime/tools/output-limits';
import { removeTempDirs, tempDir, toolContext } from '../tool-test-context';

describe('read_file', () => {
  let root: string;
  const read = (input: Parameters<typeof readFileTool.execute>[0]) => readFileTool.execute(input, toolContext(root));
  // 1,000 'a's, then a marker the preview must not show.
  const long = `${'a'.repeat(OutputLimits.previewChars)}TAIL${'b'.repeat(2_000)}`;

  beforeEach(async () => {
    root = await tempDir();
    await writeFile(path.join(root, 'long.txt'), long);
  });
  afterAll(removeTempDirs);

  it('returns a preview of the first ~1,000 characters and the size by default', async () => {
    const result = await read({ path: 'long.txt' });
    expect(result.success).toBe(true);
    expect(result.output).toContain(`long.txt (${long.length} bytes, ${long.length} characters)`);
    expect(result.output).toContain('a'.repeat(OutputLimits.previewChars));
    expect(result.output).not.toContain('TAIL');
    expect(result.output).toMatch(/preview: 1000 of 3004 characters; read_file with full: true/);
    expect(result.output.length).toBeLessThan(1_400);
  });

  it('returns a small file whole without a preview note', async () => {
    await writeFile(path.join(root, 'small.txt'), 'hello\n');
    const result = await read({ path: 'small.txt' });
    expect(result.output).toBe('small.txt (6 bytes, 6 characters):\nhello\n');
  });

  it('returns the whole file with full: true', async () => {
    const result = await read({ path: 'long.txt', full: true });
    expect(result.success).toBe(true);
    expect(result.output).toContain(long);
  });

  it('caps a full read and says how to get the rest', async () => {
    const huge = 'x'.repeat(OutputLimits.maxOutputChars + 5_000);
    await writeFile(path.join(root, 'huge.txt'), huge);
    const result = await read({ path: 'huge.txt', full: true });
    expect(result.output.length).toBeLessThan(OutputLimits.maxOutputChars + 300);
    expect(result.output).toMatch(/output truncated: showing 24000 of 29000 characters; use offset\/length/);
  });

  it('returns a character range with offset and length', async () => {
    const result = await read({ path: 'long.txt', offset: OutputLimits.previewChars, length: 4 });
    expect(result.success).toBe(true);
    expect(result.output).toMatch(/characters 1000-1004:\nTAIL$/);
  });

  it('reports a missing file and a folder as errors the model can act on', async () => {
    await mkdir(path.join(root, 'folder'));
    const missing = await read({ path: 'nope.txt' });
    expect(missing).toMatchObject({ success: false, shouldContinue: true });
    expect(missing.output).toMatch(/File not found: nope.txt. Use list_files/);
    const folder = await read({ path: 'folder' });
    expect(folder).toMatchObject({ success: false });
    expect(folder.output).toMatch(/is a directory; use list_files/);
  });
});
