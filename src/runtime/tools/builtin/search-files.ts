import { lstat } from 'node:fs/promises';
import { z } from 'zod';
import { FileRefusedError, SearchTimeoutError } from '../file-errors';
import { LinkCensus } from '../hard-links';
import { createLineMatcher, type LineMatcher } from '../line-matcher';
import { OutputLimits } from '../output-limits';
import { openForRead } from '../safe-file';
import { inFolder, SafeWorkspace, type ResolvedPath } from '../safe-open';
import { defineTool } from '../tool-definition';
import { ToolResult } from '../../../contract/tool-result';
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
    let matcher: LineMatcher;
    try {
      matcher = createLineMatcher(input.query, { regex: input.regex ?? false, caseSensitive: input.caseSensitive ?? false });
    } catch (error) {
      return ToolResult.error(`Invalid regular expression: ${(error as Error).message}`);
    }
    const ws = await SafeWorkspace.open(context.workspaceRoot, context.hiddenPaths);
    try {
      const start = await ws.resolve(input.path ?? '.');
      if (!start.stats) return ToolResult.error(`Not found: ${input.path}`);
      const search = new Search(ws, matcher);
      if (start.name !== null && !start.stats.isDirectory()) {
        // A file named outright is refused with the reason; files met while walking are skipped quietly.
        await search.file(start, input.path ?? '.', true);
      } else {
        const folder = start.name === null ? start.folder : await ws.openChildFolder(start.folder, start.name, input.path ?? '.');
        if (!folder) return ToolResult.error(`Not found: ${input.path}`);
        let files = 0;
        for await (const entry of walk(ws, folder, true, Number.MAX_SAFE_INTEGER)) {
          if (entry.isDirectory) continue;
          if (++files > MAX_FILES || search.full) break;
          // lstat, not stat: the walk lists symlinks without following them, and the search skips them.
          const stats = await lstat(inFolder(entry.folder, entry.name)).catch(() => undefined);
          if (stats?.isFile()) await search.file({ folder: entry.folder, name: entry.name, stats, relative: entry.relative }, entry.relative);
          context.heartbeat();
        }
      }
      const { matches } = search;
      if (matches.length === 0) return ToolResult.success(`No matches for "${input.query}".`);
      const note = search.full ? `\n[stopped at ${OutputLimits.maxSearchMatches} matches; narrow the query or path]` : '';
      return ToolResult.success(`${matches.length} match(es):\n${matches.join('\n')}${note}`);
    } catch (error) {
      if (error instanceof SearchTimeoutError || error instanceof FileRefusedError) return ToolResult.error(error.message);
      throw error;
    } finally {
      await Promise.all([ws.close(), matcher.close()]);
    }
  },
});

/** The matches found so far; files it cannot read safely (special, multi-link, binary, huge) are skipped. */
class Search {
  readonly matches: string[] = [];
  full = false;
  private readonly census: LinkCensus;

  constructor(
    private readonly ws: SafeWorkspace,
    private readonly matcher: LineMatcher,
  ) {
    this.census = new LinkCensus(ws);
  }

  async file(resolved: ResolvedPath, requested: string, named = false): Promise<void> {
    if (!named && (!resolved.stats?.isFile() || resolved.stats.size > MAX_FILE_BYTES)) return;
    let text: string;
    try {
      const opened = await openForRead(this.ws, resolved, requested, this.census);
      if (opened.stats.size > MAX_FILE_BYTES) throw new FileRefusedError(`"${requested}" is ${opened.stats.size} bytes, over the ${MAX_FILE_BYTES}-byte search limit; read parts of it with read_file offset/length.`);
      text = await opened.handle.readFile('utf8');
      await this.ws.release(opened.handle);
    } catch (error) {
      if (error instanceof FileRefusedError && !named) return;
      throw error;
    }
    if (text.includes('\u0000')) return;
    const lines = text.split('\n');
    for (const i of await this.matcher.match(lines)) {
      if (this.matches.length >= OutputLimits.maxSearchMatches) {
        this.full = true;
        return;
      }
      const line = lines[i] as string;
      const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
      this.matches.push(`${resolved.relative}:${i + 1}: ${shown.trim()}`);
    }
  }
}
