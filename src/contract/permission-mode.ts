import { z } from 'zod';

/**
 * How much a run may do without asking. `default`: the policy decides. `plan`: read tools run and
 * every write or execute call (sub-agents and MCP tools included) is refused at once, without parking.
 * `acceptEdits`: write tools (confined to the workspace) run without asking; commands follow the
 * policy. `dontAsk`: what would ask a person is refused instead, for unattended runs. Reject rules
 * and remembered "never" choices win over every mode.
 */
export const PermissionModeSchema = z.enum(['default', 'plan', 'acceptEdits', 'dontAsk']);
export type PermissionMode = z.infer<typeof PermissionModeSchema>;
export const PERMISSION_MODES = PermissionModeSchema.options;

/** The `setMode` update's payload. */
export const SetModeSchema = z.object({
  mode: PermissionModeSchema,
  /** Who switches it, for the audit log. In a run with approvers it must be one of them. */
  by: z.string().min(1).max(200).optional(),
  reason: z.string().max(2_000).optional(),
});
export type SetMode = z.infer<typeof SetModeSchema>;
