// The batch and mode handlers of executions from before the one-writer patch (see ../patches.ts), kept as
// they were so those histories replay; new executions use ../../message-handlers.ts.
import { ApplicationFailure, getExternalWorkflowHandle, setHandler, workflowInfo } from '@temporalio/workflow';
import { ApprovalBatchSchema } from '../../../contract/approval-batch';
import { approvalSignal, decideApprovalsUpdate, setModeUpdate } from '../../../contract/agent-run-api';
import { SetModeSchema } from '../../../contract/permission-mode';
import { FailureType } from '../../../contract/errors';
import { batchRefusal, planBatch, type ForwardedDecision } from '../../../core/machine/batch-rules';
import { pendingCalls, type SigningEnv } from '../../../core/machine/decision-rules';
import { modeRefusal } from '../../../core/machine/message-rules';
import { checkEditedArguments } from '../../edit-checks';
import type { RunDriver } from '../../run-driver';

const quiet = { publish: false };

const refused = (message: string) => ApplicationFailure.create({ type: FailureType.DecisionRefused, nonRetryable: true, message });

const malformed = (issues: { path: PropertyKey[]; message: string }[]) => issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ');

/**
 * The updates that came with permission modes and batch decisions. Both are updates, not signals:
 * the caller must learn which decision of a batch was refused, or that the mode did not change.
 */
export function installApprovalBatchHandlers(driver: RunDriver, options: { toolWideChoices: boolean; approvalChannel: boolean }): void {
  const signingEnv = (): SigningEnv & { runId: string; toolWide: boolean } => {
    const info = workflowInfo();
    return { now: Date.now(), namespace: info.namespace, firstRunId: info.firstExecutionRunId, runId: info.runId, legacy: !options.approvalChannel, toolWide: options.toolWideChoices };
  };
  const calls = (decisions: { callId: string }[]) => decisions.map((d) => d.callId).join(', ');
  // Each run below applies its decision itself and checks what only it can (its signature); a failed
  // signal (the run ended meanwhile) is reported, not thrown, since this run's part is already applied.
  const forwardDecisions = async (forwarded: readonly ForwardedDecision[]): Promise<string> => {
    const sent = await Promise.allSettled(forwarded.map((f) => getExternalWorkflowHandle(f.workflowId).signal(approvalSignal, f.decision)));
    const lines = forwarded.map((f, i) => `${f.decision.callId} → ${f.workflowId}${sent[i]?.status === 'rejected' ? ' (not delivered: the run no longer takes signals)' : ''}`);
    return `forwarded to the sub-agent runs that wait for them: ${lines.join(', ')}`;
  };

  setHandler(
    decideApprovalsUpdate,
    async (raw) => {
      const { decisions } = ApprovalBatchSchema.parse(raw);
      const first = planBatch(driver.state, decisions.map((decision) => ({ decision })), signingEnv());
      if ('refusal' in first) throw refused(first.refusal);
      // The worker checks the edits first (a forwarded call's too, against its tool's schema, so a bad
      // edit refuses the whole batch); the state may have moved meanwhile, so the batch is tried again after.
      const edits = await checkEditedArguments(driver.state, decisions, first.forwarded.map((f) => ({ callId: f.decision.callId, tool: f.tool })));
      if ('refusal' in edits) throw refused(`${edits.refusal}; nothing was applied`);
      const items = decisions.map((decision) => ({ decision, analysis: edits.analyses[decision.callId] }));
      const plan = planBatch(driver.state, items, signingEnv());
      if ('refusal' in plan) throw refused(plan.refusal);
      const before = driver.state.decisions.length;
      if (plan.local.length > 0) {
        driver.dispatch({ type: 'decisions', decisions: plan.local, via: 'update', verified: driver.state.approverKeys !== undefined, toolWide: options.toolWideChoices, legacy: !options.approvalChannel }, quiet);
      }
      await driver.flushAudit();
      const left = pendingCalls(driver.state).length;
      const settled = `${driver.state.decisions.length - before} call(s) settled, ${left} still parked`;
      if (plan.forwarded.length === 0) return { applied: true, message: `${decisions.length} decision(s) applied (${calls(decisions)}); ${settled}` };
      const forwarded = await forwardDecisions(plan.forwarded);
      const here = plan.local.length > 0 ? `here ${settled}; ` : '';
      return { applied: true, message: `${decisions.length} decision(s) applied (${calls(decisions)}); ${here}${forwarded}` };
    },
    {
      // Everything but the edits' schema checks is refused here, before the update reaches the history.
      validator: (raw: unknown) => {
        const parsed = ApprovalBatchSchema.safeParse(raw);
        if (!parsed.success) throw new Error(`Malformed batch: ${malformed(parsed.error.issues)}`);
        const refusal = batchRefusal(driver.state, parsed.data.decisions.map((decision) => ({ decision })), signingEnv());
        if (refusal) throw new Error(refusal);
      },
    },
  );

  setHandler(
    setModeUpdate,
    async (raw) => {
      const { mode, by, reason } = SetModeSchema.parse(raw);
      const from = driver.state.mode;
      driver.dispatch({ type: 'mode_set', mode, by, reason }, quiet);
      await driver.flushAudit();
      return { applied: true, message: from === mode ? `the run was already in ${mode} mode (recorded again)` : `mode switched from ${from} to ${mode} for the rest of the run` };
    },
    {
      validator: (raw: unknown) => {
        const parsed = SetModeSchema.safeParse(raw);
        if (!parsed.success) throw new Error(`Malformed mode switch: ${malformed(parsed.error.issues)} (modes: default, plan, acceptEdits, dontAsk)`);
        const refusal = modeRefusal(driver.state, parsed.data);
        if (refusal) throw new Error(refusal);
      },
    },
  );
}
