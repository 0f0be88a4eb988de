// "Approve all" and the mode switch of the run view, made as the logged-in person through the same
// client helpers as `agentctl approve --all` and `agentctl mode` (signed with the person's key).
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { approveAllParked } from '../../client/decide-all';
import { NoPendingApprovalError } from '../../client/errors';
import { switchMode } from '../../client/switch-mode';
import { PermissionModeSchema } from '../../contract/permission-mode';
import { settle, type ActionOutcome } from './decide';
import { callsAsSeen, SeenCallSchema } from './seen-calls';

export const ModeRequestSchema = z.object({ mode: PermissionModeSchema, reason: z.string().max(2_000).optional() });
export type ModeRequest = z.infer<typeof ModeRequestSchema>;

/** "Approve all N": exactly the calls the page showed, each with the hash of the arguments shown. */
export const ApproveAllRequestSchema = z.object({ calls: z.array(SeenCallSchema).min(1, 'calls must list the calls the page showed').max(100) });
export type ApproveAllRequest = z.infer<typeof ApproveAllRequestSchema>;

/** Approves the calls the person saw, all or none: one that changed or left since refuses the lot. */
export async function approveAllAs(client: Client, user: string, workflowId: string, request: ApproveAllRequest): Promise<ActionOutcome> {
  try {
    const handle = client.workflow.getHandle(workflowId);
    return await settle(async () => (await approveAllParked(handle, { approver: user, calls: await callsAsSeen(handle, request.calls) })).outcome, async () => undefined);
  } catch (error) {
    if (error instanceof NoPendingApprovalError) return { outcome: 'refused', message: error.message };
    throw error;
  }
}

export function setModeAs(client: Client, user: string, workflowId: string, request: ModeRequest): Promise<ActionOutcome> {
  return settle(() => switchMode(client.workflow.getHandle(workflowId), { mode: request.mode, by: user, ...(request.reason ? { reason: request.reason } : {}) }), async () => undefined);
}
