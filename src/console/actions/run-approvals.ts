// "Approve all" and the mode switch of the run view, made as the logged-in person through the same
// client helpers as `agentctl approve --all` and `agentctl mode` (signed with the person's key).
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { approveAllParked } from '../../client/decide-all';
import { NoPendingApprovalError } from '../../client/errors';
import { switchMode } from '../../client/switch-mode';
import { PermissionModeSchema } from '../../contract/permission-mode';
import { settle, type ActionOutcome } from './decide';

export const ModeRequestSchema = z.object({ mode: PermissionModeSchema, reason: z.string().max(2_000).optional() });
export type ModeRequest = z.infer<typeof ModeRequestSchema>;

export async function approveAllAs(client: Client, user: string, workflowId: string): Promise<ActionOutcome> {
  try {
    return await settle(async () => (await approveAllParked(client.workflow.getHandle(workflowId), { approver: user })).outcome, async () => undefined);
  } catch (error) {
    if (error instanceof NoPendingApprovalError) return { outcome: 'refused', message: error.message };
    throw error;
  }
}

export function setModeAs(client: Client, user: string, workflowId: string, request: ModeRequest): Promise<ActionOutcome> {
  return settle(() => switchMode(client.workflow.getHandle(workflowId), { mode: request.mode, by: user, ...(request.reason ? { reason: request.reason } : {}) }), async () => undefined);
}
