import type { ToolApproval } from '../approvals/approval-policy';
import type { ModelTier } from '../model/model-tiers';
import type { ToolScope } from '../tools/tool-scope';
import type { ContextBudget } from './agent-definition';

/**
 * What the workflow needs to know about an agent, handed over by the `resolveAgent` activity so the
 * registry (and the system prompt, tool code and schemas) never enter the workflow bundle.
 */
export interface ResolvedAgent {
  name: string;
  description: string;
  modelTier: ModelTier;
  maxIterations: number;
  /** Tool name to scope, for the agent's own (activity) tools; control tools are not listed. */
  tools: Record<string, ToolScope>;
  approval?: ToolApproval;
  context: ContextBudget;
}
