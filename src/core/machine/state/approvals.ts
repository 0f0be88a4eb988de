import { z } from 'zod';
import { DecisionRecordSchema, IgnoredMessageSchema, PendingQuestionSchema } from '../../../contract/run-records';
import { PermissionModeSchema } from '../../../contract/permission-mode';
import { PreferenceRuleSchema } from '../../approvals/preference-rules';
import { AcceptedSignatureSchema } from '../../approvals/signatures/accepted-signatures';

/**
 * The approvals slice: what people decided and may still decide. `decisions` is written by
 * `recordDecision` (decisions.ts); `ignored`, `pendingQuestion`, `choicesThisRun` and
 * `unsavedPreferences` by on-decision; `preferences` by on-decision and, with `approverKeys`, by
 * transition.ts when a link loads the person's stored choices; `mode` by on-mode.
 */
export const ApprovalsSliceSchema = z.object({
  decisions: z.array(DecisionRecordSchema),
  ignored: z.array(IgnoredMessageSchema),
  pendingQuestion: PendingQuestionSchema.optional(),
  /** The person's remembered choices plus those made in this run. */
  preferences: z.array(PreferenceRuleSchema),
  /** Choices made in this run, the latest per scope; they hold for the rest of the run. */
  choicesThisRun: z.array(PreferenceRuleSchema),
  /** Choices made in this run that still have to be written to the person's store. */
  unsavedPreferences: z.array(PreferenceRuleSchema),
  /** The approver registry (name → Ed25519 public key, hex) the worker had when this link started. */
  approverKeys: z.record(z.string(), z.string()).optional(),
  /** The permission mode in force (run input, else the agent's default; `setMode` switches it). */
  mode: PermissionModeSchema.default('default'),
  /**
   * Checkpoint version 9 (issue 32, must-have 6): the signatures this run accepted (their sha-256) until
   * they expire, so a signed payload is accepted once; written by on-decision's onSignaturesAccepted.
   */
  acceptedSignatures: z.array(AcceptedSignatureSchema),
});
export type ApprovalsSlice = z.infer<typeof ApprovalsSliceSchema>;
