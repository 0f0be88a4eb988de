import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { createAgentRegistry } from '../../../src/runtime/agents/agent-registry';
import { validateTeam } from '../../../src/runtime/agents/validate-team';
import { AgentDefinitionError } from '../../../src/contract/errors';
import { builtinTools } from '../../../src/runtime/tools/builtin';
import { createAgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';

const guarded: AgentDefinitionInput = {
  name: 'guarded',
  description: 'Checks its task first.',
  modelTier: 'balanced',
  tools: ['read_file'],
  systemPrompt: 'You read.',
  maxIterations: 5,
  guardrails: [{ name: 'no-secrets', on: 'input', check: { function: 'noSecrets' } }],
};

describe('a worker whose agents name guardrail functions', () => {
  // Nothing listens on port 1: a worker that got as far as connecting would fail differently.
  const start = async (guardrails: Record<string, () => { pass: true }>) =>
    createAgentWorker({ address: '127.0.0.1:1', agents: [guarded], guardrails, workspaceRoot: await mkdtemp(path.join(tmpdir(), 'guardrail-')), env: { AGENT_SANDBOX: 'none' } }).catch(
      (e: unknown) => e,
    );

  it('stops at start, before it connects, when a guardrail names a function that is not registered', async () => {
    const error = await start({ somethingElse: () => ({ pass: true }) });
    expect(error).toBeInstanceOf(AgentDefinitionError);
    expect((error as Error).message).toMatch(/guardrail "no-secrets" calling function "noSecrets", which is not registered/);
    // With the function registered the same agents pass the check.
    const registry = createAgentRegistry([guarded], builtinTools);
    expect(() => validateTeam(registry, { guardrails: { noSecrets: () => ({ pass: true }) }, approvalHandlers: {} })).not.toThrow();
  });
});
