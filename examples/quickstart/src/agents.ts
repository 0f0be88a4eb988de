// Your agent: which tools it may use, what it is told, and how many model turns it gets.
import type { AgentDefinitionInput } from 'durable-agent';

export const helpdesk: AgentDefinitionInput = {
  name: 'helpdesk',
  description: 'Turns a user problem into a support ticket.',
  modelTier: 'balanced',
  tools: ['create_ticket'],
  systemPrompt: 'You file support tickets. Create one ticket per problem, then finish with a one-line summary.',
  maxIterations: 8,
};
