import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../tool-definition';
import { ToolResult } from '../tool-result';
import { displayPath, resolveInWorkspace } from '../workspace';

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
    const absolute = resolveInWorkspace(context.workspaceRoot, input.path, context.hiddenPaths);
    await mkdir(path.dirname(absolute), { recursive: true });
    if (input.append) await appendFile(absolute, input.content, 'utf8');
    else await writeFile(absolute, input.content, 'utf8');
    const verb = input.append ? 'Appended' : 'Wrote';
    return ToolResult.success(`${verb} ${input.content.length} characters to ${displayPath(context.workspaceRoot, absolute)}`);
  },
});
