import { z } from 'zod';
import { FileRefusedError } from '../file-errors';
import { isProtectedPath } from '../../../core/approvals/protected-paths';
import { writeResolved } from '../safe-file';
import { SafeWorkspace } from '../safe-open';
import { defineTool } from '../tool-definition';
import { ToolResult } from '../../../contract/tool-result';

export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Write a text file in the workspace, creating parent folders as needed. Replaces the file unless append is true.',
  scope: 'write',
  // Writing the same content to the same path twice leaves the same file: safe to repeat after a crash.
  idempotent: true,
  subjectArgument: 'path',
  inputSchema: z.object({
    path: z.string().min(1).describe('File path relative to the workspace root'),
    content: z.string().describe('The text to write'),
    append: z.boolean().optional().describe('Append instead of replacing'),
  }),
  async execute(input, context) {
    const ws = await SafeWorkspace.open(context.workspaceRoot, context.hiddenPaths);
    try {
      // Judged on the resolved path before any folder is created, so a link cannot dress a protected path up.
      const planned = await ws.resolve(input.path);
      const byPerson = context.permission?.by === 'person';
      if (isProtectedPath(planned.relative) && !byPerson) {
        return ToolResult.error(
          `${planned.relative} is a protected path (it can make other programs run code, see docs/guides/security.md); ` +
            'only a call a person approved may write it. Ask a person to approve this write_file call.',
        );
      }
      const resolved = await ws.resolve(input.path, { createFolders: true, fileOwner: context.fileOwner });
      if (isProtectedPath(resolved.relative) && !byPerson) {
        return ToolResult.error(`${input.path} changed into a protected path (${resolved.relative}) while it was being written; it is refused.`);
      }
      await writeResolved(ws, resolved, input.path, input.content, { append: input.append, fileOwner: context.fileOwner });
      const verb = input.append ? 'Appended' : 'Wrote';
      return ToolResult.success(`${verb} ${input.content.length} characters to ${resolved.relative}`);
    } catch (error) {
      if (error instanceof FileRefusedError) return ToolResult.error(error.message);
      throw error;
    } finally {
      await ws.close();
    }
  },
});
