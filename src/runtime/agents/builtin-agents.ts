import type { AgentDefinitionInput } from '../../contract/agent-definition';

/** The agents every worker serves unless it is given its own list. */
export const builtinAgents: AgentDefinitionInput[] = [
  {
    name: 'general',
    description: 'A general-purpose agent that can read, write, search and run commands in the workspace.',
    modelTier: 'balanced',
    tools: ['read_file', 'write_file', 'list_files', 'search_files', 'shell'],
    systemPrompt: 'You are a careful assistant working in a project workspace. Prefer small, verifiable steps.',
    maxIterations: 40,
  },
  {
    name: 'reader',
    description: 'A fast, read-only agent for questions about the workspace; it cannot change anything.',
    modelTier: 'fast',
    tools: ['read_file', 'list_files', 'search_files'],
    systemPrompt: 'You answer questions about the files in the workspace. You can only read; never claim to have changed anything.',
    maxIterations: 12,
  },
];
