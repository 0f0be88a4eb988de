import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from '../tool-definition';
import { ToolResult } from '../tool-result';
import { OutputLimits } from '../output-limits';
import { displayPath, resolveInWorkspace } from '../workspace';
import { walk } from './walk';

export const listFilesTool = defineTool({
  name: 'list_files',
  description: 'List files and folders in the workspace (folders end with "/"). Set recursive to descend.',
  scope: 'read',
  subjectArgument: 'path',
  inputSchema: z.object({
    path: z.string().optional().describe('Folder relative to the workspace root (default: the root)'),
    recursive: z.boolean().optional().describe('Include the contents of sub-folders'),
  }),
  async execute(input, context) {
    const folder = resolveInWorkspace(context.workspaceRoot, input.path ?? '.', context.hiddenPaths);
    // Without these checks a missing path or a file would list as "(empty folder)" and mislead the model.
    const info = await stat(folder).catch(() => undefined);
    if (!info) return ToolResult.error(`Not found: ${input.path}. List a parent folder to see what exists.`);
    if (!info.isDirectory()) return ToolResult.error(`${input.path} is a file, not a folder; use read_file on it.`);
    const lines: string[] = [];
    const limit = OutputLimits.maxListEntries;
    for await (const entry of walk(folder, input.recursive ?? false, limit + 1, context.hiddenPaths)) {
      if (lines.length === limit) {
        lines.push(`[listing stopped at ${limit} entries; list a sub-folder to see more]`);
        break;
      }
      lines.push(displayPath(context.workspaceRoot, entry.absolute) + (entry.isDirectory ? '/' : ''));
    }
    return ToolResult.success(lines.length > 0 ? lines.join('\n') : '(empty folder)');
  },
});
