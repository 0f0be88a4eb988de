import { z } from 'zod';

/**
 * Who let a call run, and what it may do beyond reading the workspace. `by: 'person'` means a person
 * saw and approved this call; `by: 'rule'` means an allow rule, an "always" preference, a mode or a
 * read-only default let it through unseen. A call no person saw must be harmless even when the command
 * analyzer misread it, so everything beyond reading is granted by the rule that allowed it:
 * - `writes`: true for a person's approval, or for a rule or preference that grants writes
 *   (`"writes": true`). The sandbox mounts the workspace read-only when it is false, and nothing but a
 *   person's approval may write a protected path (src/core/approvals/protected-paths.ts).
 * - `network`: true for a person's approval, or for a rule or preference that grants it
 *   (`"network": true`). Only then do the call's processes get the network, and only when the run
 *   (or its agent) has `network` too: the run's setting is the ceiling, the permission the grant.
 *   Absent (a permission recorded before it existed) means what it meant then for a person, the
 *   run's network, and none for a rule: see `networkGranted`.
 */
export interface ToolPermission {
  by: 'person' | 'rule';
  writes: boolean;
  network?: boolean;
}

/**
 * `ToolPermission` as a schema, for the places it crosses a boundary: the run state a checkpoint
 * carries, and the `runTool` activity's input. Pure zod, because workflow code imports it.
 */
export const ToolPermissionSchema = z.object({
  by: z.enum(['person', 'rule']),
  writes: z.boolean(),
  network: z.boolean().optional(),
}) satisfies z.ZodType<ToolPermission>;

/** A person saw this call and approved it: it may change the workspace and use the run's network. */
export const PERSON_APPROVED: ToolPermission = Object.freeze({ by: 'person', writes: true, network: true });

/**
 * What a call gets when nothing granted more: read tools, defaults, rules without `"writes"` or
 * `"network"`, and every caller that predates permissions (an absent permission means this).
 */
export const RULE_READ_ONLY: ToolPermission = Object.freeze({ by: 'rule', writes: false, network: false });

/** A rule or a remembered "always" let the call run unseen; it writes and reaches the network only if that rule says so. */
export const ruleAllowed = (writes: boolean, network = false): ToolPermission => ({ by: 'rule', writes, network });

/** Whether the permission lets the call's processes use the network (when the run allows it at all). */
export const networkGranted = (permission: ToolPermission): boolean => permission.network ?? permission.by === 'person';
