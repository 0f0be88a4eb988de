// The `<file>.head` file: the number and hash of the log's last line. The hash chain proves every
// line but the last (each line vouches for the one before it); the head vouches for the last one and
// for the file's length, so an edited last line or a cut-off end is caught too.
import { open, readFile, rename } from 'node:fs/promises';
import { z } from 'zod';

export const AuditHeadSchema = z.strictObject({
  seq: z.number().int().positive(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});
export type AuditHead = z.infer<typeof AuditHeadSchema>;

export const headPathOf = (file: string) => `${file}.head`;

export type HeadRead = { kind: 'absent' } | { kind: 'valid'; head: AuditHead } | { kind: 'invalid'; problem: string };

export async function readHead(file: string): Promise<HeadRead> {
  let text: string;
  try {
    text = await readFile(headPathOf(file), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    throw error;
  }
  try {
    const parsed = AuditHeadSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { kind: 'valid', head: parsed.data };
  } catch {
    // Not JSON: reported below like any other malformed head.
  }
  return { kind: 'invalid', problem: `${headPathOf(file)} is not a valid {"seq", "hash"} record` };
}

/**
 * Replaces the head atomically: written to a temporary file, fsynced, then renamed over the old one,
 * so a crash leaves the old head or the new one, never half of either. The line is fsynced before
 * this runs, so after a crash the head may lag the file by one line, never run ahead of it.
 */
export async function writeHead(file: string, head: AuditHead): Promise<void> {
  const temporary = `${headPathOf(file)}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(`${JSON.stringify(head)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, headPathOf(file));
}
