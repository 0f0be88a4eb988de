import { z } from 'zod';
import { FileRefusedError } from '../file-errors';
import { OutputLimits } from '../output-limits';
import { SafeWorkspace } from '../safe-open';
import { defineTool } from '../tool-definition';
import { ToolResult } from '../../../contract/tool-result';
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
    const ws = await SafeWorkspace.open(context.workspaceRoot, context.hiddenPaths);
    try {
      const folder = await ws.openFolder(input.path ?? '.');
      // Without these checks a missing path or a file would list as "(empty folder)" and mislead the model.
      if (!folder) return ToolResult.error(`Not found: ${input.path}. List a parent folder to see what exists.`);
      if (folder === 'not-a-folder') return ToolResult.error(`${input.path} is a file, not a folder; use read_file on it.`);
      const lines: string[] = [];
      const limit = OutputLimits.maxListEntries;
      for await (const entry of walk(ws, folder, input.recursive ?? false, limit + 1)) {
        if (lines.length === limit) {
          lines.push(`[listing stopped at ${limit} entries; list a sub-folder to see more]`);
          break;
        }
        lines.push(entry.relative + (entry.isDirectory ? '/' : ''));
      }
      return ToolResult.success(lines.length > 0 ? lines.join('\n') : '(empty folder)');
    } catch (error) {
      if (error instanceof FileRefusedError) return ToolResult.error(error.message);
      throw error;
    } finally {
      await ws.close();
    }
  },
});
