import { z } from 'zod';

/**
 * The approval rules a run input (`toolApproval`) or an agent definition (`approval`) may carry. The
 * policy that applies them lives in src/core/approvals/approval-policy.ts.
 */

/** An object rule's problems in one line, for the rule schema: a failed union otherwise only says "Invalid input". */
const objectRuleProblems = (issues: readonly { path: PropertyKey[]; message: string }[] | undefined): string | undefined =>
  issues && issues.length > 0 ? issues.map((i) => `${i.path.map(String).join('.') || 'rule'}: ${i.message}`).join('; ') : undefined;

/**
 * One approval rule. A bare string names a tool (or "*" for every tool). The object form can also
 * match the call:
 * - `command` (shell only): words compared with each simple command the worker's shell parser found
 *   in the call, so chaining, extra flags or spacing cannot slip past (see src/core/approvals/shell/);
 * - `argumentsMatch`: a regular expression tested against one argument (`argument`, e.g. "command")
 *   or, without it, against the JSON of all arguments. For `shell` it is tested against each simple
 *   command's own text as well, so an allow regex cannot approve a chained command either;
 * - `writes` (allow rules only): the calls it lets run may change the workspace. Without it they run
 *   with the workspace read-only, so an allow rule that a hostile command slips past can at worst read.
 * - `network` (allow rules only): the calls it lets run may use the network, if the run allows it
 *   (`network` of the run or the agent). Without it they have none, whatever the run says, so a
 *   hostile command that slips past the rule cannot send what it read anywhere.
 */
export const ApprovalRuleSchema = z.union([
  z.string().min(1),
  z
    .object({
      tool: z.string().min(1),
      argument: z.string().min(1).optional(),
      argumentsMatch: z.string().min(1).optional(),
      command: z.string().min(1).optional(),
      writes: z.boolean({ error: 'must be true or false (true lets the calls this allow rule lets through change the workspace)' }).optional(),
      network: z.boolean({ error: 'must be true or false (true lets the calls this allow rule lets through use the network, when the run allows it)' }).optional(),
    })
    .superRefine((rule, ctx) => {
      if (rule.argumentsMatch !== undefined) {
        try {
          new RegExp(rule.argumentsMatch);
        } catch (error) {
          ctx.addIssue({
            code: 'custom',
            path: ['argumentsMatch'],
            message: `rule for ${rule.tool}: /${rule.argumentsMatch}/ is not a valid regular expression (${(error as Error).message}); fix or remove it`,
          });
        }
      }
      if (rule.command !== undefined && rule.tool !== 'shell') {
        ctx.addIssue({ code: 'custom', path: ['command'], message: `rule for ${rule.tool}: "command" only applies to rules whose tool is "shell"` });
      }
      if (rule.command !== undefined && rule.argumentsMatch !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['command'], message: `rule for ${rule.tool}: use either "command" or "argumentsMatch", not both` });
      }
    }),
], { error: (issue) => (issue.code === 'invalid_union' && typeof issue.input === 'object' && issue.input !== null ? objectRuleProblems(issue.errors[1]) : undefined) });
export type ApprovalRule = z.infer<typeof ApprovalRuleSchema>;

/**
 * What a scope policy does with a call: run it (`allow`), ask a person (`ask`), or refuse it (`reject`).
 * `approve` is the old spelling of `ask` (it clashed with a person's `approve`, meaning yes): config files
 * and run inputs that still say it keep working, read as `ask`. The checkpoint stores `ask`.
 */
export const SCOPE_ACTION_ALIASES: Readonly<Record<string, ScopeAction>> = { approve: 'ask' };
export type ScopeAction = 'allow' | 'ask' | 'reject';
const ScopeActionValues = z.enum(['allow', 'ask', 'reject'] as const satisfies readonly ScopeAction[], { error: 'must be "allow", "ask" (a person decides; "approve" is an alias) or "reject"' });
// The parameter's type is what callers may write (TypeScript sees the alias too); zod passes any value
// and the enum after the rewrite refuses what is not listed.
export const ScopeActionSchema = z.preprocess(
  (value: ScopeAction | 'approve') => (typeof value === 'string' && Object.hasOwn(SCOPE_ACTION_ALIASES, value) ? SCOPE_ACTION_ALIASES[value] : value),
  ScopeActionValues,
);

export const ScopePolicySchema = z.object({
  read: ScopeActionSchema.optional(),
  write: ScopeActionSchema.optional(),
  execute: ScopeActionSchema.optional(),
});
export type ScopePolicy = z.infer<typeof ScopePolicySchema>;

/** What an allow rule may grant beyond reading: they are refused on rules that ask or reject. */
const GRANTS = ['writes', 'network'] as const;

/** The run input field `toolApproval`, and an agent's `approval` default, have this shape. */
export const ToolApprovalSchema = z.object({
  requiresApproval: z.array(ApprovalRuleSchema).optional(),
  alwaysApproved: z.array(ApprovalRuleSchema).optional(),
  alwaysRejected: z.array(ApprovalRuleSchema).optional(),
  scopes: ScopePolicySchema.optional(),
}).superRefine((approval, ctx) => {
  // `writes` and `network` grant something; on a rule that asks or rejects they would read as a grant that is never given.
  for (const list of ['requiresApproval', 'alwaysRejected'] as const) {
    approval[list]?.forEach((rule, index) => {
      for (const grant of GRANTS) {
        if (typeof rule === 'object' && rule[grant] !== undefined) {
          ctx.addIssue({ code: 'custom', path: [list, index, grant], message: `rule for ${rule.tool}: "${grant}" only applies to alwaysApproved rules; remove it here` });
        }
      }
    });
  }
});
export type ToolApproval = z.infer<typeof ToolApprovalSchema>;
