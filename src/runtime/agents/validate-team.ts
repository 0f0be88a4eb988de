import { AgentDefinitionError } from '../../contract/errors';
import type { ApprovalHandlerFunction, GuardrailFunction } from '../guardrails/guardrail-types';
import type { AgentRegistry } from './agent-registry';

/**
 * Checks what agents name besides tools, when the worker starts: sub-agents and handoff targets must
 * be agents of this worker, guardrail and approval-handler functions must be registered, and a tool
 * guardrail may only name the agent's own tools.
 */
export function validateTeam(
  registry: AgentRegistry,
  functions: { guardrails: Readonly<Record<string, GuardrailFunction>>; approvalHandlers: Readonly<Record<string, ApprovalHandlerFunction>> },
): void {
  const known = [...registry.agents.keys()];
  for (const agent of registry.agents.values()) {
    for (const [field, names] of [['subAgents', agent.subAgents], ['handoffs', agent.handoffs]] as const) {
      for (const name of names) {
        if (!registry.agents.has(name)) {
          throw new AgentDefinitionError(`Agent "${agent.name}" lists "${name}" in ${field}, but no such agent runs on this worker. Agents: ${known.join(', ')}.`);
        }
      }
    }
    for (const guardrail of agent.guardrails) {
      if ('function' in guardrail.check && !(guardrail.check.function in functions.guardrails)) {
        throw new AgentDefinitionError(
          `Agent "${agent.name}" has guardrail "${guardrail.name}" calling function "${guardrail.check.function}", which is not registered: pass it in createAgentWorker({ guardrails }).`,
        );
      }
      for (const tool of guardrail.tools ?? []) {
        if (!agent.tools.includes(tool)) throw new AgentDefinitionError(`Agent "${agent.name}" has guardrail "${guardrail.name}" for tool "${tool}", which it does not have.`);
      }
    }
    const handler = agent.approvalHandler;
    if (handler && 'function' in handler && !(handler.function in functions.approvalHandlers)) {
      throw new AgentDefinitionError(
        `Agent "${agent.name}" names approval handler "${handler.function}", which is not registered: pass it in createAgentWorker({ approvalHandlers }).`,
      );
    }
  }
}
