// The agents, guardrail functions and approval handler the capture worker runs the scenarios with.
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';

const base = { modelTier: 'balanced' as const, systemPrompt: 'You produce fixture histories.', maxIterations: 40 };

export const fixtureAgents: AgentDefinitionInput[] = [
  { ...base, name: 'fixture', description: 'Captures fixture histories.', tools: ['read_file', 'write_file', 'list_files', 'step'], maxIterations: 30 },
  // The built-in write tool beside a custom one, for the acceptEdits and protected-path paths (issue 30).
  { ...base, name: 'fixture-edits', description: 'Writes through the built-in and a custom write tool.', tools: ['write_file', 'gated_step'], maxIterations: 10 },
  // A team: the coordinator delegates to the specialist (a child run) or hands the run over to it.
  { ...base, name: 'coordinator', description: 'Splits work between specialists.', tools: ['read_file', 'list_files'], subAgents: ['specialist'], handoffs: ['specialist'] },
  { ...base, name: 'specialist', description: 'Writes files in the workspace.', modelTier: 'fast', tools: ['read_file', 'write_file', 'list_files'] },
  {
    ...base,
    name: 'guarded',
    description: 'Runs behind guardrails and an approval handler.',
    tools: ['read_file', 'write_file', 'list_files'],
    guardrails: [
      { name: 'no-env-files', on: 'tool', onTrip: 'reject_call', tools: ['read_file'], check: { function: 'noEnv' } },
      // A model judge on the completion: a fast-tier call whose request quotes the summary.
      { name: 'on-topic', on: 'output', check: { model: { instructions: 'Trip when the summary is off topic.' } } },
    ],
    approvalHandler: { function: 'byPath' },
  },
  { ...base, name: 'tripwire', description: 'Stops at an input guardrail.', tools: ['list_files'], guardrails: [{ name: 'no-secrets', on: 'input', check: { function: 'noSecrets' } }] },
  // Thinking and a server tool, so the API may pause a long turn (pause_turn) and the run continues it.
  {
    ...base,
    name: 'researcher',
    description: 'Searches the web at length.',
    tools: ['step'],
    maxTokens: 8_192,
    thinking: { type: 'enabled', budget_tokens: 2_048 },
    serverTools: [{ type: 'web_search_20260318', name: 'web_search' }],
  },
  // A context window small enough that a few 800-character tool outputs overflow it.
  { ...base, name: 'tiny', description: 'An agent with a tiny context budget.', tools: ['step'], context: { windowTokens: 2_000, targetShare: 0.5, keepRecentTurns: 2 } },
];

export const fixtureGuardrails = {
  noEnv: (s: { on: string; input?: unknown }) => ((s.input as { path?: string } | undefined)?.path === '.env' ? { pass: false as const, reason: '.env holds secrets' } : { pass: true as const }),
  noSecrets: (s: { on: string; task?: string }) => (s.task?.includes('password') ? { pass: false as const, reason: 'the task asks for a password' } : { pass: true as const }),
};

export const fixtureApprovalHandlers = {
  byPath: (r: { input: unknown }) => {
    const file = (r.input as { path: string }).path;
    if (file.startsWith('notes/')) return { verdict: 'allow' as const, reason: 'notes are fine' };
    if (file.startsWith('secrets/')) return { verdict: 'reject' as const, reason: 'never touch secrets' };
    return { verdict: 'ask' as const, reason: 'not sure' };
  },
};
