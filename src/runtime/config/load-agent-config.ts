import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { reservedToolNames } from '../../contract/control-tools';
import { modelOptionProblems } from '../../contract/model-options';
import { AgentConfigError } from '../../contract/errors';
import { compileJsonSchema } from '../../core/json-schema/json-schema-check';
import { AgentConfigFileSchema, type AgentConfigFile } from './agent-config-schema';
import { describeConfigIssues, formatPath } from './config-issues';

/** A configuration file, read and checked, with the path it came from (for later messages). */
export interface LoadedAgentConfig extends AgentConfigFile {
  file: string;
}

function fail(file: string, problems: string[]): never {
  throw new AgentConfigError(`${file} is not a valid agent configuration:\n${problems.join('\n')}`);
}

/** YAML 1.2 is a superset of JSON, so one parser reads both; its errors carry line and column. */
function parse(file: string, text: string): unknown {
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter: lines });
  if (doc.errors.length > 0) {
    fail(
      file,
      doc.errors.map((e) => {
        const { line, col } = lines.linePos(e.pos[0]);
        return `- line ${line}, column ${col}: ${e.message.split('\n')[0]}`;
      }),
    );
  }
  return doc.toJS() ?? {};
}

/** Checks that need the whole file: agent names, the servers agents name, output schemas. */
function crossCheck(config: AgentConfigFile): string[] {
  const problems: string[] = [];
  const servers = Object.keys(config.mcpServers);
  const names = new Set<string>();
  config.agents.forEach((agent, i) => {
    const at = (...rest: PropertyKey[]) => formatPath(['agents', i, ...rest]);
    if (names.has(agent.name)) problems.push(`- ${at('name')}: a second agent is named "${agent.name}"; agent names must be unique`);
    names.add(agent.name);
    agent.mcpServers.forEach((server, j) => {
      if (!servers.includes(server)) {
        problems.push(`- ${at('mcpServers', j)}: no MCP server "${server}" in mcpServers${servers.length ? ` (there are: ${servers.join(', ')})` : ' (the file defines none)'}`);
      }
    });
    agent.tools.forEach((tool, j) => {
      const server = /^mcp__(.+?)__/.exec(tool)?.[1];
      if (server !== undefined && !servers.includes(server)) problems.push(`- ${at('tools', j)}: "${tool}" names MCP server "${server}", which mcpServers does not define`);
    });
    // Fields the API checks together (a thinking budget under maxTokens, no temperature while thinking, ...).
    for (const problem of modelOptionProblems({ ...agent, toolNames: agent.tools })) problems.push(`- ${at()}.${problem}`);
    if (agent.outputSchema) {
      try {
        compileJsonSchema(agent.outputSchema, 'it');
      } catch (error) {
        problems.push(`- ${at('outputSchema')}: ${(error as Error).message}`);
      }
    }
  });
  return problems;
}

/**
 * Reads `AGENT_CONFIG` (YAML or JSON) and checks it, before the worker starts anything: every problem
 * is reported at once, each with its place in the file and what is expected there.
 */
export function loadAgentConfig(file: string): LoadedAgentConfig {
  const absolute = path.resolve(file);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    throw new AgentConfigError(`Cannot read the agent configuration ${absolute} (AGENT_CONFIG): ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Check the path.`);
  }
  const parsed = AgentConfigFileSchema.safeParse(parse(absolute, text));
  if (!parsed.success) fail(absolute, describeConfigIssues(parsed.error.issues));
  const problems = crossCheck(parsed.data);
  if (parsed.data.agents.length === 0 && !parsed.data.includeBuiltinAgents) problems.push('- agents: the file defines no agents (add some, or set includeBuiltinAgents: true)');
  if (problems.length > 0) fail(absolute, problems);
  return { ...parsed.data, file: absolute };
}

/**
 * Once the tools are known (the MCP servers have listed theirs), checks every tool an agent names,
 * so a typo is reported with its place in the file rather than as an unknown tool at the first call.
 */
export function checkToolReferences(config: LoadedAgentConfig, known: readonly string[]): void {
  const problems = config.agents.flatMap((agent, i) =>
    agent.tools.flatMap((tool, j) => {
      if (known.includes(tool) || reservedToolNames.has(tool)) return [];
      const server = /^mcp__(.+?)__/.exec(tool)?.[1];
      const candidates = server ? known.filter((name) => name.startsWith(`mcp__${server}__`)) : known.filter((name) => !name.startsWith('mcp__'));
      return [`- ${formatPath(['agents', i, 'tools', j])}: unknown tool "${tool}"; ${server ? `MCP server "${server}" offers` : 'known tools'}: ${candidates.join(', ') || 'none'}`];
    }),
  );
  if (problems.length > 0) fail(config.file, problems);
}
