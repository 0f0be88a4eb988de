import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLastLine, readTailLines } from '../../../src/runtime/audit/last-line';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'last-line-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (lines: Buffer[]) => lines.map((line) => line.toString('utf8'));

describe('readTailLines', () => {
  it('gives every line of a file that fits the window, oldest first', async () => {
    const file = path.join(dir, 'a.log');
    await writeFile(file, 'one\ntwo\nthree\n');
    expect(text(await readTailLines(file, 1024))).toEqual(['one', 'two', 'three']);
  });

  it('leaves out the line the window starts inside, and keeps one it starts exactly on', async () => {
    const file = path.join(dir, 'b.log');
    await writeFile(file, 'one\ntwo\nthree\n');
    // 14 bytes in all: the last 8 start inside "two"; the last 10 start right after "one\n".
    expect(text(await readTailLines(file, 8))).toEqual(['three']);
    expect(text(await readTailLines(file, 10))).toEqual(['two', 'three']);
    expect(text(await readTailLines(file, 3))).toEqual([]);
  });

  it('reads a missing file as no lines, and leaves out an unfinished last line', async () => {
    expect(await readTailLines(path.join(dir, 'missing.log'), 1024)).toEqual([]);
    const file = path.join(dir, 'c.log');
    await writeFile(file, 'one\ntwo');
    expect(text(await readTailLines(file, 1024))).toEqual(['one']);
    expect(await readLastLine(file)).toEqual({ kind: 'unterminated' });
  });
});
