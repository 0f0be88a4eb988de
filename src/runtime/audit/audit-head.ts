// The `<file>.head` file and its copy: the number and hash of the log's last line. The hash chain
// proves every line but the last (each line vouches for the one before it); the head vouches for the
// last one and for the file's length, so an edited last line or a cut-off end is caught too. The
// head beside the log is lost with it (whoever cuts the log can delete or rewrite it: the hashes carry
// no key), so every head is also written to a second folder the operator chooses (AGENT_AUDIT_HEAD_DIR),
// under a name derived from the log's full path.
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';

export const AuditHeadSchema = z.strictObject({
  seq: z.number().int().positive(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});
export type AuditHead = z.infer<typeof AuditHeadSchema>;

/** The copy also names the log it belongs to, so a folder of copies tells which logs should exist. */
export const AuditHeadCopySchema = AuditHeadSchema.extend({ log: z.string().min(1) }).strict();

export const headPathOf = (file: string) => `${file}.head`;

/** `<headDir>/<log file name>-<16 hex of the log's full path>.head`: unique per log, readable by a person. */
export function headCopyPathOf(file: string, headDir: string): string {
  const resolved = path.resolve(file);
  const tag = createHash('sha256').update(resolved).digest('hex').slice(0, 16);
  return path.join(headDir, `${path.basename(resolved)}-${tag}.head`);
}

export type HeadRead = { kind: 'absent' } | { kind: 'valid'; head: AuditHead } | { kind: 'invalid'; problem: string };

async function readHeadFile(headFile: string, schema: typeof AuditHeadSchema | typeof AuditHeadCopySchema): Promise<HeadRead> {
  let text: string;
  try {
    text = await readFile(headFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    throw error;
  }
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    if (parsed.success) return { kind: 'valid', head: { seq: parsed.data.seq, hash: parsed.data.hash } };
  } catch {
    // Not JSON: reported below like any other malformed head.
  }
  return { kind: 'invalid', problem: `${headFile} is not a valid {"seq", "hash"} record` };
}

export const readHead = (file: string) => readHeadFile(headPathOf(file), AuditHeadSchema);
export const readHeadCopy = (file: string, headDir: string) => readHeadFile(headCopyPathOf(file, headDir), AuditHeadCopySchema);

/** The logs named by the copies in `headDir`: every log that has had a line written, as far as the copies know. */
export async function logsWithHeadCopies(headDir: string): Promise<string[]> {
  const names = await readdir(headDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const logs: string[] = [];
  for (const name of names.filter((n) => n.endsWith('.head'))) {
    const parsed = AuditHeadCopySchema.safeParse(JSON.parse(await readFile(path.join(headDir, name), 'utf8').catch(() => 'null')) as unknown);
    if (parsed.success) logs.push(parsed.data.log);
  }
  return logs;
}

/**
 * Replaces a head file atomically: written to a temporary file, fsynced, then renamed over the old
 * one, so a crash leaves the old head or the new one, never half of either.
 */
async function replaceAtomically(headFile: string, content: object): Promise<void> {
  const temporary = `${headFile}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(`${JSON.stringify(content)}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, headFile);
}

/**
 * Writes the head beside the log, then its copy in `headDir`. The line is fsynced before this runs,
 * so after a crash either head may lag the file by one line, never run ahead of it.
 */
export async function writeHead(file: string, head: AuditHead, headDir: string): Promise<void> {
  await replaceAtomically(headPathOf(file), head);
  await mkdir(headDir, { recursive: true });
  await replaceAtomically(headCopyPathOf(file, headDir), { ...head, log: path.resolve(file) });
}
