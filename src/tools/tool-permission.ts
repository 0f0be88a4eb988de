import { z } from 'zod';
import type { ToolPermission } from './tool-definition';

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
