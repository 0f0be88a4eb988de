// Reads a file's last line from its end, so reopening a large audit log costs a few reads, not a
// read of the whole file.
import { open } from 'node:fs/promises';

const CHUNK_BYTES = 16 * 1024;
const NEWLINE = 0x0a;

export type LastLine =
  | { kind: 'empty' }
  /** The last line's exact bytes, without its newline. */
  | { kind: 'line'; bytes: Buffer }
  /** The file does not end with a newline: a write stopped part way, or the file was cut. */
  | { kind: 'unterminated' };

/** The last complete line of `file`; a missing file reads as empty. */
export async function readLastLine(file: string): Promise<LastLine> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'empty' };
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return { kind: 'empty' };
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] !== NEWLINE) return { kind: 'unterminated' };
    // Walk back from just before the final newline until the newline that ends the line before.
    const chunks: Buffer[] = [];
    let end = size - 1;
    while (end > 0) {
      const start = Math.max(0, end - CHUNK_BYTES);
      const chunk = Buffer.alloc(end - start);
      await handle.read(chunk, 0, chunk.length, start);
      const newline = chunk.lastIndexOf(NEWLINE);
      if (newline >= 0) {
        chunks.unshift(chunk.subarray(newline + 1));
        break;
      }
      chunks.unshift(chunk);
      end = start;
    }
    return { kind: 'line', bytes: Buffer.concat(chunks) };
  } finally {
    await handle.close();
  }
}

/**
 * The complete lines in the last `maxBytes` of `file` (oldest first, without their newlines): the line
 * cut by that window's start is left out. A missing file reads as none.
 */
export async function readTailLines(file: string, maxBytes: number): Promise<Buffer[]> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - maxBytes);
    const window = Buffer.alloc(size - start);
    await handle.read(window, 0, window.length, start);
    const lines: Buffer[] = [];
    let from = 0;
    if (start > 0) {
      // Unless the window starts right after a newline, its first line is only the end of one.
      const before = Buffer.alloc(1);
      await handle.read(before, 0, 1, start - 1);
      if (before[0] !== NEWLINE) from = window.indexOf(NEWLINE) + 1;
      if (from === 0 && before[0] !== NEWLINE) return [];
    }
    for (let newline = window.indexOf(NEWLINE, from); newline >= 0; newline = window.indexOf(NEWLINE, from)) {
      lines.push(window.subarray(from, newline));
      from = newline + 1;
    }
    return lines;
  } finally {
    await handle.close();
  }
}
