// The histories `agentctl audit prove` reads: files exported with `temporal workflow show --output
// json` (one per link of a continue-as-new chain), a JSON array of such histories, or a folder of them.
import { readdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { readHistoryJson, type History } from '../../history-json';
import { AuditProofInputError } from '../../../contract/errors';

/** One history and where it came from (a file, or `temporal` when fetched), for messages. */
export interface SourcedHistory {
  source: string;
  history: History;
}

const EXPORT_HINT = 'export each link with `temporal workflow show --workflow-id <id> --run-id <run id> --output json > <file>`';

async function kindOf(target: string): Promise<'file' | 'folder'> {
  try {
    return (await stat(target)).isDirectory() ? 'folder' : 'file';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new AuditProofInputError(`No history at ${target}: ${EXPORT_HINT}.`);
    throw new AuditProofInputError(`Cannot read the history at ${target} (${(error as Error).message}).`);
  }
}

function parseHistory(value: unknown, where: string): History {
  const events = (value as { events?: unknown } | null)?.events;
  if (!Array.isArray(events) || events.length === 0) {
    throw new AuditProofInputError(`${where} is not a workflow history (no "events"): ${EXPORT_HINT}.`);
  }
  try {
    return readHistoryJson(value);
  } catch (error) {
    throw new AuditProofInputError(
      `${where} is not a history in Temporal's JSON form (${(error as Error).message}); ${EXPORT_HINT}, or write it with historyToJSON from @temporalio/common/lib/proto-utils.`,
    );
  }
}

async function readHistoryFile(file: string): Promise<SourcedHistory[]> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new AuditProofInputError(`${file} is not JSON (${(error as Error).message}): ${EXPORT_HINT}.`);
  }
  if (!Array.isArray(value)) return [{ source: file, history: parseHistory(value, file) }];
  return value.map((item, i) => ({ source: `${file}[${i}]`, history: parseHistory(item, `${file}[${i}]`) }));
}

/** Every history in the files and folders named, in the order given (a folder's files by name). */
export async function readHistories(targets: readonly string[]): Promise<SourcedHistory[]> {
  const read: SourcedHistory[] = [];
  for (const target of targets) {
    if ((await kindOf(target)) === 'file') {
      read.push(...(await readHistoryFile(target)));
      continue;
    }
    const files = (await readdir(target)).filter((name) => name.endsWith('.json')).sort();
    if (files.length === 0) throw new AuditProofInputError(`The folder ${target} holds no .json history: ${EXPORT_HINT}.`);
    for (const name of files) read.push(...(await readHistoryFile(path.join(target, name))));
  }
  return read;
}
