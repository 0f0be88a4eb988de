import { patched } from '@temporalio/workflow';

/**
 * Every change to `agentRun` that alters the commands a running workflow issues is guarded by a patch
 * (see docs/guides/upgrading.md). A history written before the change has no marker, so `patched` is false
 * while it replays and the old behaviour is kept for the rest of that execution (run link); a new
 * execution records the marker and behaves the new way. When no execution from before a change can
 * still be running, its `patched` call becomes `deprecatePatch` and, a release later, goes away.
 */
export const Patches = {
  /** Model unavailable (429/5xx/529/connection): wait it out with timers, no attempt cap (was: fail after 12 attempts). */
  waitOutModelOutage: 'wait-out-model-outage',
  /** "Always"/"never" remember the command or arguments the person saw (was: the whole tool). */
  scopedChoices: 'scoped-choices',
  /** Compaction keeps the recent turns that fit a token budget and cuts oversized outputs (was: a fixed number of turns). */
  compactionByBudget: 'compaction-by-token-budget',
  /** Contiguous read-only calls of a turn run side by side (was: one at a time). */
  concurrentReadTools: 'concurrent-read-tools',
  /** A closed run's conversation is deleted from the model activity's store (was: left behind). */
  releaseConversation: 'release-conversation-on-close',
  /** Decisions are written to the audit log by a local activity before they take effect (was: a best-effort sink). */
  auditDecisions: 'audit-decisions',
  /** Calls of quick idempotent tools run as local activities inside the workflow task (was: an activity task each). */
  localQuickTools: 'local-quick-tools',
  /**
   * Signatures cover the v2 canonical message, a prefix must start the call, and a run with approvers
   * takes answers and follow-ups only from them (was: v1 newline-joined signatures, any prefix, anyone).
   */
  approvalChannel: 'approval-channel-v2',
  /** A tool result with `shouldContinue: false` (`ToolResult.complete`) ends the run once its turn is done (was: ignored). */
  toolResultEndsRun: 'tool-result-ends-run',
  /** A run that is not a thread takes `userMessage`/`sendMessage` as steering for its next model request (was: refused). */
  steerWorkingRuns: 'steer-working-runs',
  /** A paused turn (`pause_turn`) is sent back as it is, and the reply continues it (was: a "Continue." user message). */
  continuePausedTurns: 'continue-paused-turns',
  /**
   * Every message handler is installed before the run's first `await`; handlers only validate and
   * queue, and the loop is the one writer that applies messages, runs their effects and answers them
   * (was: handlers installed after the agent was resolved, dispatching into the state, running
   * activities and signalling other runs themselves, concurrently with the loop). The code such
   * executions run is kept in compat/legacy/.
   */
  oneWriter: 'one-writer-message-handlers',
  /**
   * Issue 30: a built-in file tool's write to a protected path asks a person in every mode, and
   * acceptEdits lets only the built-in file tools write unasked (was: rules, "always" and acceptEdits
   * let such writes through to the tool, which refused them; acceptEdits let every write tool run).
   */
  containedCalls: 'contained-calls',
  /**
   * The end of a run (cancelled, failed, finished) writes the audit lines a cancelled flush left
   * behind (was: a decision applied in the task that cancelled the run had no audit line).
   */
  endFlushesAudit: 'end-flushes-audit',
  /**
   * A sub-agent's run cancelled from outside is its call's result and the run goes on (was: the
   * parent failed with "Child Workflow execution cancelled"; the fuzzer's seeds 4, 44, 62).
   */
  childCancelIsAResult: 'child-cancel-is-a-result',
  /**
   * Issue 32: a `childStatus` report is taken only from a running sub-agent run of this one, about
   * itself and the runs below it (was: any running child's report, listing any run); a decision's
   * `argumentsHash` and `workflowId` are checked and a signed one must carry the hash; run rules
   * under a registry are a ceiling.
   */
  approvalChannelII: 'approval-channel-ii',
  /**
   * Issue 32: a fork or resume of a run with approvers starts only at an approver's (signed) request,
   * and runs as the requester's, with only the choices they made (was: anyone, as the original's user).
   */
  forkRequester: 'fork-requester',
  /**
   * Issue 31: a message the run applied in the task that cancelled it (its audit write cancelled, then
   * written by `endRun`) is answered "applied" once that line is on disk (was: refused "The run was
   * cancelled before this could be applied" although the state and the audit log have it; the
   * fuzzer's seed 84).
   */
  appliedAtCancel: 'applied-at-cancel-answered-applied',
  /**
   * Issue 32, must-have 6: a signed decision, reply or message is accepted once; the run keeps its
   * signature's hash until it expires (`acceptedSignatures`) and refuses a second delivery (was: a
   * signed payload lifted from the history could be sent again until it expired).
   */
  signedOnce: 'signed-once',
  /**
   * Issue 32: a fork or resume of a run with approvers writes an audit line naming its requester at
   * the new run's start, before any tool runs (was: only the memo and `requestedBy` named them).
   */
  requesterAudit: 'requester-audit-line',
  /**
   * Issue 32, must-have 4: a decision on a sub-agent's call is forwarded by an update (an activity
   * waits for the answer) and the root answers with what that run did: applied, or refused and why
   * (was: a signal, answered "delivered, not applied yet").
   */
  forwardByUpdate: 'forward-by-update',
  /**
   * Issue 34: the run upserts its estimated cost (`AgentCostUsd`, priced by the worker with each model
   * reply) when an iteration ends and the figure changed (was: no cost attribute).
   */
  costAttribute: 'cost-search-attribute',
  /**
   * Issue 34: a call that may have a side effect and that a rule, a remembered "always" or the mode
   * lets run unasked gets a `policy_allow` decision and its audit line (saying what decided) before
   * it is scheduled (was: no line; `agentctl audit prove` reported such calls as `unlogged_rule`).
   */
  ruleDecisionLines: 'rule-decision-lines',
  /**
   * Issue 36: a call of one of the agent's Nexus tools runs from the workflow as a Nexus operation
   * (nexus-tool-call.ts) once the policy allows it (was: no agent had Nexus tools).
   */
  nexusTools: 'nexus-tools',
  /**
   * Issue 34: a run's spend budget (`budget` of its input or its agent) is priced by the worker at
   * start and parks the run before a model call that would cross it (was: no budget; a run started
   * before this never asks the worker for one, so it never parks).
   */
  spendBudget: 'spend-budget',
  /**
   * A link's history budget counts only once the link has made 20 events of its own (was: a link
   * whose start alone filled a small budget, such as the least the input allows, handed over at
   * once, and so did every next link, for ever; the fuzzer's seed 8).
   */
  linkMakesProgress: 'link-makes-progress',
  /**
   * Issue 36: a Nexus tool call whose arguments the worker found not to fit the tool's input schema
   * (the model reply's `argumentProblems`) gets an error result at once, before the policy, a
   * guardrail or a person sees it (was: it was judged, could park, and ran with them).
   */
  nexusArgumentChecks: 'nexus-argument-checks',
  /**
   * Issue 34: an approver's budget raise writes an audit line (kind `budget`: who raised it, from what
   * to what, signed or not) before the raise is answered and the run goes on, and a signed raise is
   * accepted once, like a signed decision (`acceptedSignatures`) (was: only the `budgetRaised`
   * lifecycle event; a signed raise lifted from the history was refused only when it raised nothing).
   */
  accountableRaises: 'accountable-budget-raises',
  /**
   * Issue 37, a leaner history. One marker stands for every patch above (was: a link recorded one
   * marker for each, and the SDK upserted `TemporalChangeVersion` once for each: 52 events that carry
   * nothing a user reads, 2.5 of the 50-run bench's 11.7 history events per iteration); a patch added
   * below this one is recorded on its own again.
   */
  leanHistory: 'lean-history',
  /**
   * Issue 31, the fuzzer's seed 1: a decision's audit line is written by a `recordAudit` activity task,
   * which the server starts only once it has kept the workflow task that made the decision, so a task
   * it never kept (its worker died, or it was refused) leaves no line behind (was: a local activity
   * inside the deciding task wrote it; a retried task that saw the messages in another order wrote a
   * second, different decision for the same call).
   */
  auditAfterCommit: 'audit-after-commit',
  /**
   * Issue 37, the workflow thread's CPU: a loop pass with no handler running, no message to apply and
   * no audit line to wait for goes on without awaiting settle and the audit flush, and a step's
   * activity outcome is kept by one `then`: 41 promises an iteration instead of 58, each of which costs
   * the SDK a captured stack trace (was: every pass awaited both; an update answered in one pass
   * completed before the next pass scheduled its activity, which histories of older releases hold:
   * fixtures `x-at-start` and `x-same-text` fail on the quick path).
   */
  quickLoop: 'quick-loop',
} as const;

export type Features = { -readonly [K in keyof typeof Patches]: boolean };

/**
 * The behaviour of this execution, decided once at its start: a run keeps one behaviour for a whole
 * link, and a link that started on an older release finishes the way that release would have.
 */
export function currentFeatures(): Features {
  const features = {} as Features;
  // Asked first: a history without its marker (an older release's) answers false while it replays,
  // records nothing, and the patches are then asked one by one in their order, as that release did.
  const covered = patched(Patches.leanHistory);
  let coveredByOne = covered;
  for (const [name, id] of Object.entries(Patches) as [keyof typeof Patches, string][]) {
    if (id === Patches.leanHistory) {
      features[name] = covered;
      coveredByOne = false;
      continue;
    }
    features[name] = coveredByOne || patched(id);
  }
  return features;
}
