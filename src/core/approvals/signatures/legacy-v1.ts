// The version 1 signature, still accepted only by executions that started before the v2 message (the
// `approval-channel-v2` patch): a history whose decisions were checked this way must replay the same
// way. New executions refuse it; remove this file with the patch (docs/guides/upgrading.md). Pure, workflow code.
import { verifyDecisionSignature } from './decision-signature';
import { legacyDecisionText } from './signed-message';

/** True when a registry is set and `decision` carries a good v1 signature of a registered approver. */
export function v1SignatureVerifies(args: {
  registry: Readonly<Record<string, string>> | undefined;
  workflowId: string;
  decision: { callId: string; decision: string; approver?: string; signature?: string; scope?: string; prefix?: string };
}): boolean {
  const { registry, workflowId, decision } = args;
  const approver = decision.approver;
  if (registry === undefined || !decision.signature || !approver || !Object.hasOwn(registry, approver)) return false;
  const scope = decision.scope === 'tool' ? 'tool' : decision.prefix === undefined ? undefined : `prefix:${decision.prefix}`;
  const text = legacyDecisionText({ workflowId, callId: decision.callId, decision: decision.decision, approver, scope });
  return verifyDecisionSignature({ publicKeyHex: registry[approver]!, text, signatureBase64: decision.signature });
}
