import { reservedToolNames } from '../../contract/control-tools';
import { AgentDefinitionError, ToolDefinitionError } from '../../contract/errors';
import type { AgentDefinition } from '../../contract/agent-definition';
import { nexusToolName } from '../../contract/nexus-tool';
import { ToolResult } from '../../contract/tool-result';
import { describeZodError } from '../../contract/describe-zod-error';
import type { ContentBlock } from '../../contract/messages';
import { defineJsonSchemaTool } from '../tools/json-schema-tool';
import type { Tool } from '../tools/tool-definition';

/**
 * An agent's Nexus tools as tools of the registry, so the model sees them like any other (name,
 * description, input schema) and the workflow learns their scope. Their calls never reach the
 * worker's `runTool`: the workflow starts the Nexus operation itself. A definition that clashes with
 * another of the agent's tools, or whose input schema cannot be compiled, throws at worker start.
 */
export function nexusToolsOf(agent: AgentDefinition): Tool[] {
  const taken = new Set(agent.tools);
  return agent.nexusTools.map((spec) => {
    const name = nexusToolName(spec);
    if (taken.has(name) || reservedToolNames.has(name)) {
      throw new AgentDefinitionError(`Agent "${agent.name}": Nexus tool "${name}" (${spec.service}/${spec.operation}) has the name of another of its tools; give it another "name".`);
    }
    try {
      return defineJsonSchemaTool({
        name,
        description: spec.description,
        scope: spec.scope,
        inputJsonSchema: spec.inputSchema,
        // A Nexus operation is durable on the server: the workflow never starts it twice for one call.
        idempotent: true,
        execute: () =>
          Promise.resolve(ToolResult.error(`${name} is a Nexus operation; it runs from the workflow, and this worker was asked to run it as an activity (a run of an older release?).`)),
      });
    } catch (error) {
      if (error instanceof ToolDefinitionError) throw new AgentDefinitionError(`Agent "${agent.name}": ${error.message}`);
      throw error;
    }
  });
}

/**
 * Checks the arguments of each Nexus tool call in a model reply against the tool's input schema, on
 * the worker (where the compiled JSON Schema check lives), so the answer is in the history and the
 * workflow needs no validator of its own. By tool_use id, the error result the model reads, worded as
 * `runTool` words other tools' argument errors; undefined when every Nexus call fits (or there is none),
 * so replies without one keep their shape.
 */
export function nexusArgumentProblems(registry: { nexusTool(agent: string, name: string): Tool | undefined }, agent: string, content: readonly ContentBlock[]): Record<string, string> | undefined {
  const problems: Record<string, string> = {};
  for (const block of content) {
    if (block.type !== 'tool_use') continue;
    const tool = registry.nexusTool(agent, block.name);
    const parsed = tool?.inputSchema.safeParse(block.input);
    if (!tool || !parsed || parsed.success) continue;
    problems[block.id] =
      `Invalid arguments for ${tool.name}:\n${describeZodError(parsed.error)}\nExpected schema: ${JSON.stringify(tool.jsonSchema)}\n` +
      'The Nexus operation was not started; call it again with arguments that fit the schema.';
  }
  return Object.keys(problems).length > 0 ? problems : undefined;
}
