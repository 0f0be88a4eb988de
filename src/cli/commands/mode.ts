import { type Command } from '../../client/cli-context';
import { stringFlag } from '../../client/approval-helpers';
import { switchMode } from '../../client/switch-mode';
import { PERMISSION_MODES, PermissionModeSchema } from '../../contract/permission-mode';
import { UsageError } from '../../client/errors';

/** `agentctl mode <workflowId> <mode>`: switches a run's permission mode for the rest of the run. */
export const modeCommand: Command = {
  name: 'mode',
  usage: `agentctl mode <workflowId> <${PERMISSION_MODES.join('|')}> [--by NAME] [--reason R] [--json]`,
  summary: 'switch a run\'s permission mode (plan: read only; acceptEdits: writes unasked; dontAsk: refuse what would ask); written to the audit log',
  async run(ctx) {
    const [workflowId, mode, ...extra] = ctx.args.positionals;
    if (!workflowId || !mode || extra.length > 0) throw new UsageError('mode needs a workflow id and a mode');
    const parsed = PermissionModeSchema.safeParse(mode);
    if (!parsed.success) throw new UsageError(`unknown mode "${mode}"; modes: ${PERMISSION_MODES.join(', ')}`);
    const by = stringFlag(ctx, 'by') ?? ctx.clientSettings.approver;
    const reason = stringFlag(ctx, 'reason');
    const handle = (await ctx.client()).workflow.getHandle(workflowId);
    const payload = { mode: parsed.data, ...(by ? { by } : {}), ...(reason ? { reason } : {}) };
    const outcome = await switchMode(handle, payload);
    ctx.print({ workflowId, ...payload, ...outcome }, () => `${workflowId}: ${outcome.message}`);
    return 0;
  },
};
