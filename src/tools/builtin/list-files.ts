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
  inputSchema: z.object({
    path: z.string().optional().describe('Folder relative to the workspace root (default: the root)'),
    recursive: z.boolean().optional().describe('Include the contents of sub-folders'),
  }),
  async execute(input, context) {
    const folder = resolveInWorkspace(context.workspaceRoot, input.path ?? '.');
    const lines: string[] = [];
    const limit = OutputLimits.maxListEntries;
    for await (const entry of walk(folder, input.recursive ?? false, limit + 1)) {
      if (lines.length === limit) {
        lines.push(`[listing stopped at ${limit} entries; list a sub-folder to see more]`);
        break;
      }
      lines.push(displayPath(context.workspaceRoot, entry.absolute) + (entry.isDirectory ? '/' : ''));
    }
    return ToolResult.success(lines.length > 0 ? lines.join('\n') : '(empty folder)');
  },
});
