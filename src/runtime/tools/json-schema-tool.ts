import { z } from 'zod';
import { ToolDefinitionError } from '../../contract/errors';
import { compileJsonSchema } from '../../core/json-schema/json-schema-check';
import { defineTool, type Tool, type ToolContext } from './tool-definition';
import type { ToolResult } from '../../contract/tool-result';
import type { ToolScope } from '../../contract/tool-scope';

/** Arguments of a tool described by JSON Schema: an object, checked against that schema. */
const ArgumentsSchema = z.looseObject({});
export type JsonSchemaArguments = z.infer<typeof ArgumentsSchema>;

export interface JsonSchemaToolSpec {
  name: string;
  description: string;
  scope: ToolScope;
  /** The input schema as its author wrote it (e.g. an MCP server's `inputSchema`); it must describe an object. */
  inputJsonSchema: Record<string, unknown>;
  idempotent?: boolean;
  subjectArgument?: string;
  execute: (input: JsonSchemaArguments, context: ToolContext) => Promise<ToolResult>;
}

/**
 * Builds a tool whose input schema is JSON Schema rather than zod (tools from MCP servers). The model
 * sees the schema exactly as given; arguments are checked with a JSON Schema validator, plugged into
 * the same zod boundary every tool has (an object schema refined by the compiled check), so the
 * registry, `runTool` and its error messages need no second path. A schema that is not an object
 * schema, or that the validator cannot compile, throws `ToolDefinitionError` here, at worker start.
 */
export function defineJsonSchemaTool(spec: JsonSchemaToolSpec): Tool<typeof ArgumentsSchema> {
  const { inputJsonSchema, ...rest } = spec;
  const { $schema: _dialect, ...jsonSchema } = inputJsonSchema;
  if (jsonSchema.type !== 'object') {
    throw new ToolDefinitionError(`Tool "${spec.name}" must take an object input schema (type "object"); the Messages API only accepts those.`);
  }
  let check: ReturnType<typeof compileJsonSchema>;
  try {
    check = compileJsonSchema(inputJsonSchema, `The input schema of tool "${spec.name}"`);
  } catch (error) {
    throw new ToolDefinitionError((error as Error).message);
  }
  const inputSchema = ArgumentsSchema.superRefine((value, ctx) => {
    const result = check(value);
    if (result.valid) return;
    for (const problem of result.problems) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  });
  const tool = defineTool({ ...rest, inputSchema });
  return { ...tool, jsonSchema };
}
