import type { AgentCatalog, CatalogAgent } from '../../runtime/agents/agent-catalog';
import { fetchAgentCatalog } from '../../client/agent-catalog';
import type { Command } from '../../client/cli-context';
import { terminalSafe } from '../../client/terminal-safe';

function renderAgent(agent: CatalogAgent): string[] {
  const width = Math.max(...agent.tools.map((t) => t.name.length), 4);
  const facts = [`${agent.modelTier} tier`, `${agent.maxIterations} iterations`, `workspace ${agent.workspace}`];
  if (agent.approvers) facts.push(`approvers: ${agent.approvers.join(', ')}`);
  if (agent.typedOutput) facts.push('typed output');
  return [
    `${agent.name}: ${terminalSafe(agent.description)}`,
    `  ${facts.join(' · ')}`,
    ...agent.tools.map((t) => `  ${t.name.padEnd(width)}  ${t.scope.padEnd(7)}  ${t.source}${t.idempotent ? '' : ', runs at most once'}`),
    `  ends with: ${agent.completionTools.join(', ')}`,
  ];
}

export function renderCatalog(catalog: AgentCatalog): string {
  const lines = [`Agents on task queue "${catalog.taskQueue}"${catalog.configFile ? ` (from ${catalog.configFile})` : ''}:`, ''];
  for (const agent of catalog.agents) lines.push(...renderAgent(agent), '');
  if (catalog.mcpServers.length > 0) {
    lines.push('MCP servers:');
    for (const s of catalog.mcpServers) {
      lines.push(`  ${s.name}  ${s.transport}  ${terminalSafe(s.endpoint)}  ${s.tools.length} tool(s)  ${s.connected ? 'connected' : 'disconnected (reconnects on the next call)'}`);
    }
  }
  return lines.join('\n').trimEnd();
}

/** `agentctl agents`: the agents a worker of the task queue serves, with their tools. */
export const agentsCommand: Command = {
  name: 'agents',
  usage: 'agentctl agents [--json]',
  summary: 'list the agents the workers of the task queue serve, with their tools and MCP servers',
  async run(ctx) {
    const catalog = await fetchAgentCatalog(await ctx.client(), ctx.settings.taskQueue);
    ctx.print(catalog, () => renderCatalog(catalog));
    return 0;
  },
};
