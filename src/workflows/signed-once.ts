import type { LetterContext } from './letter-context';

/**
 * Records the signatures of payloads the loop just applied here (patch signedOnce), so a copy lifted
 * from the history is refused (decision-rules.ts, replayOf). A decision forwarded to a sub-agent's run
 * is that run's to record. Nothing to record without an approver registry (nothing is verified then).
 */
export function noteSignatures(ctx: LetterContext, payloads: readonly { signature?: string; expiresAt?: string }[]): void {
  if (!ctx.options.signedOnce || ctx.driver.state.approverKeys === undefined) return;
  const signed = payloads.flatMap((p) => (p.signature && p.expiresAt ? [{ signature: p.signature, expiresAt: p.expiresAt }] : []));
  if (signed.length > 0) ctx.driver.dispatch({ type: 'signatures_accepted', signed });
}
