import { z } from 'zod';
import { ToolDefinitionError } from '../../contract/errors';
import type { ProcessRunner } from './sandbox/process-runner';
import type { ToolResult } from '../../contract/tool-result';
import type { ToolScope } from '../../contract/tool-scope';
import type { ShellAnalysis } from '../../contract/shell-analysis';
import type { ToolPermission } from '../../contract/tool-permission';

export type { ToolPermission } from '../../contract/tool-permission';

/** What a running tool gets from the worker besides its arguments. */
export interface ToolContext {
  /** Absolute, symlink-resolved workspace root; every path the tool touches must stay inside it. */
  workspaceRoot: string;
  /** Aborted when Temporal cancels the activity or the worker shuts down. */
  signal: AbortSignal;
  /** Tells Temporal the tool is alive; long tools call it so a dead worker is noticed quickly. */
  heartbeat: (details?: unknown) => void;
  /**
   * `"<workflowId>/<callId>"`: the same for every attempt of one tool call (activity retries, a
   * worker that died mid-call), so a tool with side effects elsewhere can recognise a repeat.
   */
  idempotencyKey: string;
  /** The only way a tool may start a process: clean environment, sandboxed when the worker can. */
  processes: ProcessRunner;
  /**
   * Whether processes this call starts may use the network: the run (or agent) allows it and the
   * call's permission grants it (a person approved it, or its rule says `"network": true`).
   */
  network: boolean;
  /** Folders inside the workspace this call's processes must not see, such as other runs' folders. */
  hiddenPaths: readonly string[];
  /**
   * Who let this call run and whether it may write (see `ToolPermission`). Absent only for callers
   * that predate it; tools treat absence as `{ by: 'rule', writes: false }`.
   */
  permission?: ToolPermission;
  /**
   * When the worker runs as root, commands run as an unprivileged user; files and folders a tool
   * creates in the workspace are handed to this owner so those commands can still change them.
   */
  fileOwner?: { uid: number; gid: number };
}

export interface ToolSpec<S extends z.ZodObject> {
  name: string;
  description: string;
  scope: ToolScope;
  inputSchema: S;
  execute: (input: z.infer<S>, context: ToolContext) => Promise<ToolResult>;
  /**
   * Safe to run again after a worker died mid-call (default: true for read tools, false otherwise).
   * A call of a tool that is not runs at most once: if its worker dies, the model is told the outcome
   * is unknown instead of the call running twice.
   */
  idempotent?: boolean;
  /** How long one attempt may take before Temporal gives up on it (default 15 minutes). */
  timeoutSeconds?: number;
  /**
   * Finishes within a few seconds (default: true for read tools that declare no `timeoutSeconds`; a
   * tool that needs its own time limit is not quick unless it says so). A call of a quick tool that is also
   * idempotent runs as a local activity, inside the workflow task that decided it: no activity task
   * and no extra workflow task. If the worker dies first, the next one runs it again, which is why
   * only idempotent tools qualify; one that turns out slow is retried as an ordinary activity.
   */
  quick?: boolean;
  /**
   * The argument that says what a call touches (`path` for file tools, `command` for `shell`), so a
   * person's "always"/"never" covers that, not the whole tool.
   */
  subjectArgument?: string;
  /**
   * Reads a call right after the model made it, on the worker, for the approval rules (for `shell`,
   * the parsed command). The result is recorded with the call in the run's history.
   */
  analyze?: (input: z.infer<S>, context: { workspaceRoot: string }) => Promise<ShellAnalysis>;
}

/** A tool after its definition was checked: the JSON Schema the model sees is derived once, here. */
export interface Tool<S extends z.ZodObject = z.ZodObject> extends ToolSpec<S> {
  jsonSchema: Record<string, unknown>;
}

/** The Messages API refuses any other tool name. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Builds a tool from a zod object schema. A bad definition throws here, when the worker builds its
 * registry, not at the first model call that would otherwise be rejected by the API.
 */
export function defineTool<S extends z.ZodObject>(spec: ToolSpec<S>): Tool<S> {
  if (!TOOL_NAME.test(spec.name)) {
    throw new ToolDefinitionError(`Tool name "${spec.name}" must match ${TOOL_NAME} (the Messages API's rule).`);
  }
  if (!(spec.inputSchema instanceof z.ZodObject)) {
    throw new ToolDefinitionError(
      `Tool "${spec.name}" must take a z.object(...) input schema; the Messages API only accepts object schemas.`,
    );
  }
  return { ...spec, jsonSchema: toInputJsonSchema(spec.inputSchema) };
}

/** The JSON Schema the Messages API wants in `input_schema` (an object schema without `$schema`). */
export function toInputJsonSchema(schema: z.ZodObject): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  if (json.type !== 'object') {
    throw new ToolDefinitionError('A tool input schema must describe an object.');
  }
  return json;
}

export { describeZodError } from '../../contract/describe-zod-error';
