import { z } from 'zod';
import { reservedToolNames } from '../../contract/control-tools';
import { ToolDefinitionError, ZodVersionMismatchError } from '../../contract/errors';
import { TOOL_NAME as TOOL_NAME_PATTERN, type Tool } from './tool-definition';

/** The zod major version this package was built against and resolves at run time (its peer). */
const OUR_ZOD_MAJOR = (z.object({}) as unknown as { _zod: { version: { major: number } } })._zod.version.major;

/**
 * Which zod major built a schema: zod 4 schemas carry `_zod.version`; zod 3 schemas (also the ones
 * `zod/v3` builds) have `_def.typeName` instead. `undefined` for something that is no zod schema.
 */
function zodMajorOf(schema: unknown): number | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const internals = (schema as { _zod?: { version?: { major?: unknown } } })._zod;
  if (typeof internals?.version?.major === 'number') return internals.version.major;
  const def = (schema as { _def?: { typeName?: unknown } })._def;
  return typeof def?.typeName === 'string' ? 3 : undefined;
}

function checkSchema(tool: Tool): void {
  const major = zodMajorOf(tool.inputSchema);
  if (major !== undefined && major !== OUR_ZOD_MAJOR) {
    throw new ZodVersionMismatchError(
      `Tool "${tool.name}" has an input schema built with zod ${major}, but durable-agent runs with zod ${OUR_ZOD_MAJOR}. ` +
        `Build the schema with the zod your project shares with durable-agent (its peer dependency, zod@^${OUR_ZOD_MAJOR}): ` +
        `import { z } from 'zod' with one zod ${OUR_ZOD_MAJOR} installed (npm ls zod shows the copies).`,
    );
  }
  if (!(tool.inputSchema instanceof z.ZodObject)) {
    throw new ToolDefinitionError(
      `Tool "${tool.name}" must take a z.object({...}) input schema; the Messages API only accepts object schemas. ` +
        'Wrap the arguments in an object, e.g. z.object({ text: z.string() }), and build the tool with defineTool.',
    );
  }
}

/**
 * Checks the tools a user hands to `createAgentWorker` before anything else is built: each name is one
 * the Messages API accepts and no other tool (built-in, control or user) has, and each schema is a zod
 * object of our zod major. Tools may be built without `defineTool` (a spread, a plain object), so the
 * checks `defineTool` makes are made again here; every error names the tool and what to change.
 */
export function checkUserTools(builtin: readonly Tool[], user: readonly Tool[]): void {
  const builtinNames = new Set(builtin.map((tool) => tool.name));
  const seen = new Set<string>();
  for (const tool of user) {
    const name = String((tool as { name?: unknown }).name);
    if (!TOOL_NAME_PATTERN.test(name)) {
      throw new ToolDefinitionError(
        `Tool name "${name}" is not one the Messages API accepts: use 1 to 64 letters, digits, "_" or "-" (${TOOL_NAME_PATTERN}).`,
      );
    }
    if (builtinNames.has(name)) {
      throw new ToolDefinitionError(`Tool "${name}" has the name of a built-in tool; rename yours (e.g. "my_${name}").`);
    }
    if (reservedToolNames.has(name)) {
      throw new ToolDefinitionError(`Tool "${name}" has the name of the runtime's control tool "${name}"; rename yours.`);
    }
    if (seen.has(name)) {
      throw new ToolDefinitionError(`Two tools passed to createAgentWorker are named "${name}"; tool names must be unique, so rename one of them.`);
    }
    seen.add(name);
    checkSchema(tool);
  }
}
