import type { Tool } from '../tool-definition';
import { listFilesTool } from './list-files';
import { readFileTool } from './read-file';
import { searchFilesTool } from './search-files';
import { shellTool } from './shell';
import { writeFileTool } from './write-file';

/** The tools every worker has. Agents pick from these (and from custom tools) by name. */
export const builtinTools: readonly Tool[] = [readFileTool, writeFileTool, listFilesTool, searchFilesTool, shellTool] as Tool[];
