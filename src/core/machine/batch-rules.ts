import { produce } from 'immer';
import type { ApprovalDecision } from '../../contract/approval-decision';
import type { ShellAnalysis } from '../../contract/shell-analysis';
import { decisionRefusal, type SigningEnv } from './decision-rules';
import { onDecision } from './on-decision';
import type { RunState } from './run-state';
import { transitionContext } from './transition-context';

/**
 * Why a batch of decisions cannot be applied as a whole, naming the call and the reason, or undefined
 * when every one of them can. It tries the batch on a copy of the state, in order, with the same pure
 * checks a single decision gets, so a decision made moot by an earlier one in the batch (an "always"
 * that already settled the call) is caught too. Nothing of the real state changes here.
 */
export function batchRefusal(
  state: RunState,
  items: readonly { decision: ApprovalDecision; analysis?: ShellAnalysis }[],
  env: SigningEnv & { runId: string; toolWide: boolean },
): string | undefined {
  let refusal: string | undefined;
  const ctx = transitionContext({ now: env.now, runId: env.runId, namespace: env.namespace, firstRunId: env.firstRunId }, []);
  produce(state, (draft) => {
    for (const [index, { decision, analysis }] of items.entries()) {
      const problem = decisionRefusal(draft, decision, env);
      if (problem) {
        refusal = `decision ${index + 1} of ${items.length} (${decision.decision} ${decision.callId}) is refused: ${problem}; nothing was applied`;
        return;
      }
      onDecision(draft, decision, 'update', false, ctx, env.toolWide, env.legacy === true, analysis);
    }
  });
  return refusal;
}
