import { z } from 'zod';
import { ToolScopeSchema, type ToolScope } from '../tools/tool-scope';

/**
 * One approval rule. A bare string names a tool (or "*" for every tool). The object form can also
 * match the call's arguments: `argumentsMatch` is a regular expression tested against one argument
 * (`argument`, e.g. "command") or, without it, against the JSON of all arguments.
 */
export const ApprovalRuleSchema = z.union([
  z.string().min(1),
  z.object({
    tool: z.string().min(1),
    argument: z.string().min(1).optional(),
    argumentsMatch: z.string().min(1).optional(),
  }),
]);
export type ApprovalRule = z.infer<typeof ApprovalRuleSchema>;

export const ScopeActionSchema = z.enum(['allow', 'approve', 'reject']);
export type ScopeAction = z.infer<typeof ScopeActionSchema>;

export const ScopePolicySchema = z.object({
  read: ScopeActionSchema.optional(),
  write: ScopeActionSchema.optional(),
  execute: ScopeActionSchema.optional(),
});
export type ScopePolicy = z.infer<typeof ScopePolicySchema>;

/** The run input field `toolApproval`, and an agent's `approval` default, have this shape. */
export const ToolApprovalSchema = z.object({
  requiresApproval: z.array(ApprovalRuleSchema).optional(),
  alwaysApproved: z.array(ApprovalRuleSchema).optional(),
  alwaysRejected: z.array(ApprovalRuleSchema).optional(),
  scopes: ScopePolicySchema.optional(),
});
export type ToolApproval = z.infer<typeof ToolApprovalSchema>;

/** Read tools run; tools that write or execute ask a person. */
export const DEFAULT_SCOPE_POLICY: Required<ScopePolicy> = { read: 'allow', write: 'approve', execute: 'approve' };

/** A person's remembered decisions ("always" / "never"), by tool name. */
export interface ToolPreferences {
  alwaysApproved: string[];
  alwaysRejected: string[];
}

export type PolicyVerdict = { action: ScopeAction; reason: string };

export { ToolScopeSchema, type ToolScope };

export function ruleMatches(rule: ApprovalRule, tool: string, input: unknown): boolean {
  if (typeof rule === 'string') return rule === '*' || rule === tool;
  if (rule.tool !== '*' && rule.tool !== tool) return false;
  if (rule.argumentsMatch === undefined) return true;
  let subject: string;
  if (rule.argument !== undefined) {
    const value = input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[rule.argument] : undefined;
    if (value === undefined) return false;
    subject = typeof value === 'string' ? value : JSON.stringify(value);
  } else {
    subject = JSON.stringify(input ?? {});
  }
  try {
    return new RegExp(rule.argumentsMatch).test(subject);
  } catch {
    // A rule with a broken pattern falls back to a literal substring test rather than never matching.
    return subject.includes(rule.argumentsMatch);
  }
}

const describe = (rule: ApprovalRule): string =>
  typeof rule === 'string' ? rule : `${rule.tool}${rule.argumentsMatch ? ` /${rule.argumentsMatch}/` : ''}`;

/**
 * Decides what happens to one tool call. Precedence, first match wins:
 *  1. any reject rule (run `alwaysRejected`, agent `alwaysRejected`, the person's "never") → reject;
 *  2. run `requiresApproval` → approve (ask); 3. run `alwaysApproved` → allow;
 *  4. the person's remembered "always" → allow;
 *  5. agent `requiresApproval` → ask; 6. agent `alwaysApproved` → allow;
 *  7. the scope policy (run scopes over agent scopes over the default: read allow, write/execute ask).
 * A reject rule always wins, so no combination of "always" settings can run a call someone forbade.
 */
export function evaluatePolicy(args: {
  tool: string;
  scope: ToolScope;
  input: unknown;
  run?: ToolApproval;
  agent?: ToolApproval;
  preferences?: ToolPreferences;
}): PolicyVerdict {
  const { tool, scope, input, run, agent, preferences } = args;
  const first = (rules: ApprovalRule[] | undefined) => rules?.find((r) => ruleMatches(r, tool, input));

  const rejected = first(run?.alwaysRejected) ?? first(agent?.alwaysRejected);
  if (rejected !== undefined) return { action: 'reject', reason: `rejected by rule "${describe(rejected)}"` };
  if (preferences?.alwaysRejected.includes(tool)) return { action: 'reject', reason: `you chose "never" for ${tool}` };

  const runAsks = first(run?.requiresApproval);
  if (runAsks !== undefined) return { action: 'approve', reason: `run rule "${describe(runAsks)}" requires approval` };
  const runAllows = first(run?.alwaysApproved);
  if (runAllows !== undefined) return { action: 'allow', reason: `run rule "${describe(runAllows)}" approves it` };
  if (preferences?.alwaysApproved.includes(tool)) return { action: 'allow', reason: `you chose "always" for ${tool}` };

  const agentAsks = first(agent?.requiresApproval);
  if (agentAsks !== undefined) return { action: 'approve', reason: `agent rule "${describe(agentAsks)}" requires approval` };
  const agentAllows = first(agent?.alwaysApproved);
  if (agentAllows !== undefined) return { action: 'allow', reason: `agent rule "${describe(agentAllows)}" approves it` };

  const action = run?.scopes?.[scope] ?? agent?.scopes?.[scope] ?? DEFAULT_SCOPE_POLICY[scope];
  return { action, reason: `${scope} tools: ${action}` };
}
