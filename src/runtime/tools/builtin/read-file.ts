import { z } from 'zod';
import { defineTool } from '../tool-definition';
import { ToolResult } from '../../../contract/tool-result';
import { capOutput, OutputLimits } from '../output-limits';
import { FileRefusedError } from '../file-errors';
import { LinkCensus } from '../hard-links';
import { openForRead } from '../safe-file';
import { SafeWorkspace } from '../safe-open';

export const readFileTool = defineTool({
  name: 'read_file',
  description:
    'Read a text file in the workspace. By default returns a preview (the first ~1,000 characters) and the file size; ' +
    'pass full: true for the whole file, or offset/length (in characters) for a range. Use search_files to find text in large files.',
  scope: 'read',
  subjectArgument: 'path',
  inputSchema: z.object({
    path: z.string().min(1).describe('File path relative to the workspace root'),
    full: z.boolean().optional().describe('Return the whole file (capped) instead of a preview'),
    offset: z.number().int().min(0).optional().describe('Start of a character range to return'),
    length: z.number().int().min(1).optional().describe('Length of the character range (default 4,000)'),
  }),
  async execute(input, context) {
    const ws = await SafeWorkspace.open(context.workspaceRoot, context.hiddenPaths);
    let text: string;
    let header: string;
    try {
      const resolved = await ws.resolve(input.path);
      if (!resolved.stats) return ToolResult.error(`File not found: ${input.path}. Use list_files to see what exists.`);
      if (resolved.name === null || resolved.stats.isDirectory()) return ToolResult.error(`${input.path} is a directory; use list_files on it.`);
      const file = await openForRead(ws, resolved, input.path, new LinkCensus(ws));
      text = await file.handle.readFile('utf8');
      header = `${resolved.relative} (${file.stats.size} bytes, ${text.length} characters)`;
    } catch (error) {
      if (error instanceof FileRefusedError) return ToolResult.error(error.message);
      throw error;
    } finally {
      await ws.close();
    }
    if (input.offset !== undefined || input.length !== undefined) {
      const start = input.offset ?? 0;
      const end = Math.min(text.length, start + (input.length ?? 4_000));
      return ToolResult.success(
        `${header}, characters ${start}-${end}:\n${capOutput(text.slice(start, end))}`,
      );
    }
    if (input.full) {
      return ToolResult.success(
        `${header}:\n${capOutput(text, OutputLimits.maxOutputChars, 'use offset/length to read the rest')}`,
      );
    }
    if (text.length <= OutputLimits.previewChars) return ToolResult.success(`${header}:\n${text}`);
    return ToolResult.success(
      `${header}, preview:\n${text.slice(0, OutputLimits.previewChars)}\n` +
        `[preview: ${OutputLimits.previewChars} of ${text.length} characters; read_file with full: true, or offset/length, or search_files for more]`,
    );
  },
});
