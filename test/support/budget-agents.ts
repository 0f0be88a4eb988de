// The test agents of the spend-budget tests (issue 34), shared by the workflow, client and console suites.
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { reply, toolCall } from './fake-anthropic';

/**
 * An agent on claude-haiku-4-5, priced $1 / $5 per million tokens: each `costly()` reply (10,000 in,
 * 2,000 out) costs $0.02, and a next call's worst case (max_tokens 4,096 of output) $0.02048. Its
 * one approver is `ana`.
 */
export const spender: AgentDefinitionInput = {
  name: 'spender',
  description: 'Spends.',
  modelTier: 'fast',
  model: 'claude-haiku-4-5',
  tools: ['list_files'],
  systemPrompt: 'You spend.',
  maxIterations: 10,
  approvers: ['ana'],
};

/** A scripted reply that lists files and costs $0.02 at spender's price (12,000 tokens). */
export const costly = () => reply(toolCall('list_files', { path: '.' })).withUsage({ input_tokens: 10_000, output_tokens: 2_000 });
