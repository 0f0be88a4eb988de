import { z } from 'zod';

/**
 * Who let a call run, and whether it may change the workspace. `by: 'person'` means a person saw
 * and approved this call; `by: 'rule'` means an allow rule, an "always" preference or a read-only
 * default let it through unseen. `writes` is true for a person's approval, or for a rule or
 * preference that grants writes (`"writes": true`). The sandbox mounts the workspace read-only when
 * `writes` is false, and nothing but a person's approval may write a protected path
 * (`protected-paths.ts`), so a fooled command analyzer can at worst read.
 */
export interface ToolPermission {
  by: 'person' | 'rule';
  writes: boolean;
}

/**
 * `ToolPermission` (who let a call run, whether it may write) as a schema, for the places it crosses a
 * boundary: the run state a checkpoint carries, and the `runTool` activity's input. Pure zod, because
 * workflow code imports it.
 */
export const ToolPermissionSchema = z.object({
  by: z.enum(['person', 'rule']),
  writes: z.boolean(),
}) satisfies z.ZodType<ToolPermission>;

/** A person saw this call and approved it: it may change the workspace. */
export const PERSON_APPROVED: ToolPermission = Object.freeze({ by: 'person', writes: true });

/**
 * What a call gets when nothing granted writes: read tools, defaults, rules without `"writes": true`,
 * and every caller that predates permissions (an absent permission means this).
 */
export const RULE_READ_ONLY: ToolPermission = Object.freeze({ by: 'rule', writes: false });

/** A rule or a remembered "always" let the call run unseen; it writes only if that rule says so. */
export const ruleAllowed = (writes: boolean): ToolPermission => ({ by: 'rule', writes });
