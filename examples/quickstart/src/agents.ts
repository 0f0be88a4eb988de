// Your agent: which tools it may use, what it is told, and how many model turns it gets. defineAgent
// checks it here, where it is written, and keeps its types (no `as const` needed).
import { defineAgent } from 'durable-agent';

export const helpdesk = defineAgent({
  name: 'helpdesk',
  description: 'Turns a user problem into a support ticket.',
  modelTier: 'balanced',
  tools: ['create_ticket'],
  systemPrompt: 'You file support tickets. Create one ticket per problem, then finish with a one-line summary.',
  maxIterations: 8,
});
