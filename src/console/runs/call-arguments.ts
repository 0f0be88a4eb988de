// A pending call's arguments as a person should read them: the command line (and the simple
// commands the worker's parser found) for `shell`, a diff against the current file for
// `write_file`, indented JSON for anything else. The page renders these as text, never as HTML.
import { structuredPatch } from 'diff';
import type { PendingApproval } from '../../contract/run-status';
import { readWorkspaceFile } from './workspace-file';

export interface DiffHunk {
  oldStart: number;
  newStart: number;
  /** Each line starts with "+", "-" or " ", as in a unified diff. */
  lines: string[];
}

export type CallArguments =
  | { kind: 'shell'; command: string; commands: string[] }
  | { kind: 'write_file'; path: string; append: boolean; mode: 'diff'; hunks: DiffHunk[] }
  | { kind: 'write_file'; path: string; append: boolean; mode: 'new' | 'content-only'; content: string; note?: string }
  | { kind: 'json'; text: string };

/** Content longer than this is cut in the page (the run still gets all of it). */
const MAX_SHOWN_CHARS = 20_000;

const clip = (text: string) => (text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}\n… (${text.length - MAX_SHOWN_CHARS} more characters)` : text);

function asRecord(input: unknown): Record<string, unknown> {
  return input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

export async function describeCallArguments(call: Pick<PendingApproval, 'tool' | 'input' | 'commands' | 'workflowId'>, workspace: string | undefined): Promise<CallArguments> {
  const input = asRecord(call.input);
  if (call.tool === 'shell' && typeof input.command === 'string') {
    return { kind: 'shell', command: input.command, commands: call.commands ?? [] };
  }
  if (call.tool === 'write_file' && typeof input.path === 'string' && typeof input.content === 'string') {
    const append = input.append === true;
    const current = await readWorkspaceFile(workspace, call.workflowId, input.path);
    if (current.kind === 'absent') return { kind: 'write_file', path: input.path, append, mode: 'new', content: clip(input.content) };
    if (current.kind === 'unavailable') {
      return { kind: 'write_file', path: input.path, append, mode: 'content-only', content: clip(input.content), note: `No diff: ${current.why}.` };
    }
    const next = append ? current.content + input.content : input.content;
    const patch = structuredPatch(input.path, input.path, current.content, next, '', '', { context: 3 });
    return { kind: 'write_file', path: input.path, append, mode: 'diff', hunks: patch.hunks.map((h) => ({ oldStart: h.oldStart, newStart: h.newStart, lines: h.lines })) };
  }
  return { kind: 'json', text: clip(JSON.stringify(call.input ?? {}, null, 2)) };
}
