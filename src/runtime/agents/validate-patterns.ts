import { commandPatternsOf } from '../../core/approvals/approval-policy';
import { parseCommandPattern } from '../shell/analyze-shell';
import { AgentDefinitionError } from '../../contract/errors';
import type { AgentRegistry } from './agent-registry';

/**
 * Parses every `command` rule of every agent with the worker's shell parser, so a rule that is not
 * one simple command of plain words stops the worker at start, naming the agent and the rule.
 */
export async function validateCommandPatterns(registry: AgentRegistry): Promise<void> {
  for (const agent of registry.agents.values()) {
    for (const pattern of commandPatternsOf(agent.approval)) {
      try {
        await parseCommandPattern(pattern);
      } catch (error) {
        throw new AgentDefinitionError(`Agent "${agent.name}" has an invalid shell rule: ${(error as Error).message}`);
      }
    }
  }
}
