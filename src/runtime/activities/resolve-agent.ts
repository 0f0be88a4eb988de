import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { commandPatternsOf } from '../../core/approvals/approval-policy';
import { parseCommandPattern } from '../shell/analyze-shell';
import type { CommandPattern } from '../../contract/shell-analysis';
import { FailureType } from '../../contract/errors';
import type { ResolvedAgent } from '../../contract/resolved-agent';
import type { ActivityDeps } from './activity-deps';
import type { NexusTargets } from '../../contract/nexus-tool';

/** The agent's Nexus tools, only for an agent that has some: every other result keeps its old shape. */
export function nexusToolsField(deps: Pick<ActivityDeps, 'registry'>, agent: string): { nexusTools?: NexusTargets } {
  const targets = deps.registry.nexusTargets(agent);
  return Object.keys(targets).length > 0 ? { nexusTools: targets } : {};
}
import { BudgetSchema, type Budget } from '../../contract/budget';
import type { AgentDefinition } from '../../contract/agent-definition';
import type { RunBudget } from '../../core/machine/state/budget';
import { modelIdFor } from '../model/model-request';
import { loadModelPrices, MODEL_PRICES_FILE_ENV, ModelPricesError, SERVER_TOOL_PRICES } from '../model/model-prices';

export const ResolveAgentInputSchema = z.object({
  agent: z.string(),
  /** The run's own `command` rule patterns, to be split into words by the worker's shell parser. */
  commandPatterns: z.array(z.string()).default([]),
  /** The run's own budget and model (issue 34; patch `spend-budget`): the worker prices the budget. */
  budget: BudgetSchema.optional(),
  model: z.string().optional(),
});
export type ResolveAgentInput = z.input<typeof ResolveAgentInputSchema>;

/** The agent, plus what the run must know of the worker: its approver registry, where its Nexus tools go, and its budget. */
export type ResolveAgentResult = ResolvedAgent & { approverKeys?: Record<string, string>; nexusTools?: NexusTargets; budget?: RunBudget };

/**
 * Hands the workflow what it needs about an agent; an unknown name ends the run at once, and so does
 * a `command` rule of the run that is not one simple command of plain words.
 */
export function createResolveAgent(deps: ActivityDeps) {
  return async function resolveAgent(raw: ResolveAgentInput): Promise<ResolveAgentResult> {
    const input = ResolveAgentInputSchema.parse(raw);
    const agent = deps.registry.agents.get(input.agent);
    if (!agent) {
      const known = [...deps.registry.agents.keys()].join(', ');
      throw ApplicationFailure.create({
        type: FailureType.UnknownAgent,
        nonRetryable: true,
        message: `Unknown agent "${input.agent}". Agents on this worker: ${known}.`,
        details: [{ known: [...deps.registry.agents.keys()] }],
      });
    }
    const commandPatterns: Record<string, CommandPattern> = {};
    for (const pattern of [...commandPatternsOf(agent.approval), ...input.commandPatterns]) {
      try {
        commandPatterns[pattern] = await parseCommandPattern(pattern);
      } catch (error) {
        throw ApplicationFailure.create({ type: FailureType.InvalidRunInput, nonRetryable: true, message: (error as Error).message });
      }
    }
    return {
      name: agent.name,
      description: agent.description,
      modelTier: agent.modelTier,
      ...(agent.model ? { model: agent.model } : {}),
      maxIterations: agent.maxIterations,
      tools: deps.registry.toolInfo(agent.name),
      approval: agent.approval,
      context: agent.context,
      approvers: agent.approvers,
      workspace: agent.workspace,
      network: agent.network,
      sandboxed: deps.processes.mode.mode === 'bwrap',
      commandPatterns,
      completionTools: agent.completionTools,
      subAgents: agent.subAgents,
      handoffs: agent.handoffs,
      delegation: agent.delegation,
      guardrails: agent.guardrails.map(({ name, on, onTrip, tools }) => ({ name, on, onTrip, tools })),
      approvalHandler: agent.approvalHandler !== undefined,
      ...(agent.mode === undefined ? {} : { mode: agent.mode }),
      approverKeys: deps.approverKeys,
      ...nexusToolsField(deps, agent.name),
      ...budgetOf(deps, agent, input),
    };
  };
}

/**
 * The run's budget, the run's limits over the agent's field by field, priced at the run's model. A
 * USD limit on a model with no known price is refused: the run could not tell when to park.
 */
function budgetOf(deps: ActivityDeps, agent: AgentDefinition, input: { budget?: Budget; model?: string }): { budget?: RunBudget } {
  if (!input.budget && !agent.budget) return {};
  const limits = { ...agent.budget, ...stripUndefined(input.budget ?? {}) };
  const model = modelIdFor(agent, deps.settings.model.tiers, input.model);
  const budget: RunBudget = { ...limits, callTokens: agent.maxTokens };
  if (limits.maxUsd === undefined) return { budget };
  let price;
  try {
    price = loadModelPrices(deps.settings.env?.[MODEL_PRICES_FILE_ENV]).get(model);
  } catch (error) {
    if (error instanceof ModelPricesError) throw ApplicationFailure.create({ type: FailureType.InvalidRunInput, nonRetryable: true, message: error.message });
    throw error;
  }
  if (!price) {
    throw ApplicationFailure.create({
      type: FailureType.InvalidRunInput,
      nonRetryable: true,
      message: `Refused to run with budget.maxUsd ${limits.maxUsd}: no price is known for model ${model}, so the run could not tell what it spends. Add the model's price to the JSON file ${MODEL_PRICES_FILE_ENV} names (e.g. {"${model}": {"input": 3, "output": 15}}), or set budget.maxTokens instead.`,
    });
  }
  return { budget: { ...budget, price: { ...price, requests: { ...SERVER_TOOL_PRICES } } } };
}

const stripUndefined = (b: Partial<Budget>): Partial<Budget> => Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined));
