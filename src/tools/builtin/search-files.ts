import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from '../tool-definition';
import { ToolResult } from '../tool-result';
import { OutputLimits } from '../output-limits';
import { displayPath, resolveInWorkspace, staysInWorkspace } from '../workspace';
import { walk } from './walk';

/** Files larger than this are skipped: they are rarely source and would stall the search. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_FILES = 5_000;
const MAX_LINE_CHARS = 240;

export const searchFilesTool = defineTool({
  name: 'search_files',
  description:
    'Search text files in the workspace for a string (or a regular expression with regex: true). ' +
    'Returns matching lines as path:line: text, not whole files.',
  scope: 'read',
  subjectArgument: 'path',
  inputSchema: z.object({
    query: z.string().min(1).describe('Text to look for'),
    path: z.string().optional().describe('Folder or file to search (default: the whole workspace)'),
    regex: z.boolean().optional().describe('Treat query as a JavaScript regular expression'),
    caseSensitive: z.boolean().optional(),
  }),
  async execute(input, context) {
    const flags = input.caseSensitive ? '' : 'i';
    let pattern: RegExp;
    try {
      pattern = new RegExp(input.regex ? input.query : input.query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
    } catch (error) {
      return ToolResult.error(`Invalid regular expression: ${(error as Error).message}`);
    }
    const start = resolveInWorkspace(context.workspaceRoot, input.path ?? '.', context.hiddenPaths);
    const info = await stat(start).catch(() => undefined);
    if (!info) return ToolResult.error(`Not found: ${input.path}`);
    const files: string[] = [];
    if (info.isFile()) {
      files.push(start);
    } else {
      // The walk lists symlinks without following them, but reading one would: skip those that lead out.
      for await (const entry of walk(start, true, MAX_FILES, context.hiddenPaths)) {
        if (!entry.isDirectory && staysInWorkspace(context.workspaceRoot, entry.absolute)) files.push(entry.absolute);
      }
    }

    const matches: string[] = [];
    let truncated = false;
    for (const file of files) {
      const size = (await stat(file).catch(() => undefined))?.size ?? 0;
      if (size > MAX_FILE_BYTES) continue;
      const text = await readFile(file, 'utf8').catch(() => '');
      if (text.includes('\u0000')) continue;
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i += 1) {
        const line = lines[i] as string;
        if (!pattern.test(line)) continue;
        if (matches.length >= OutputLimits.maxSearchMatches) {
          truncated = true;
          break;
        }
        const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
        matches.push(`${displayPath(context.workspaceRoot, file)}:${i + 1}: ${shown.trim()}`);
      }
      if (truncated) break;
    }
    context.heartbeat();
    if (matches.length === 0) return ToolResult.success(`No matches for "${input.query}".`);
    const note = truncated ? `\n[stopped at ${OutputLimits.maxSearchMatches} matches; narrow the query or path]` : '';
    return ToolResult.success(`${matches.length} match(es):\n${matches.join('\n')}${note}`);
  },
});
