import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { canonicalJson } from '../../core/approvals/canonical-json';
import type { ConversationRef } from '../../contract/conversation-ref';
import { userMessageSignal } from '../../contract/agent-run-api';
import { createActivities, type Activities, type ActivityDeps } from '../../runtime/activities';
import { createCallModel, type CallModelInput } from '../../runtime/activities/call-model';
import { materialize } from '../../runtime/activities/conversation-sync';
import { createCheckGuardrails, createJudgeApprovals } from '../../runtime/activities/guardrails';
import { createSummarizeConversation } from '../../runtime/activities/summarize-conversation';
import type { ModelClient } from '../../runtime/model/providers/model-client';
import type { ModelClients } from '../../runtime/model/providers/open-model-clients';
import { REPLAY_STOPPED, shadowModelClient, stoppedFailure } from './shadow-model-client';
import type { ShadowSession } from './shadow-session';
import { createShadowRunTool } from './shadow-tools';

/** The shadows a shadow worker serves, by workflow id. */
export type ShadowSessions = ReadonlyMap<string, ShadowSession>;

/**
 * The shadow worker's activities: the worker's own implementations (activities/index.ts), each
 * behind an adapter that keeps the shadow in its own world. The model answers from the record (or
 * live, see shadow-model-client.ts); tools never run side effects (shadow-tools.ts); nothing is
 * written to the original's audit log, preferences or workspace: the audit and preference writes are
 * no-ops, preferences read are the recorded run's, and the workspace copy is the shadow's own. A run
 * on the shadow queue that is not a shadow of this replay (a sub-agent's run, say) is refused.
 */
export function createShadowActivities(deps: ActivityDeps, sessions: ShadowSessions, liveClients?: ModelClients): Activities {
  const own = createActivities(deps);
  const sessionOf = (): ShadowSession => {
    const workflowId = Context.current().info.workflowExecution?.workflowId ?? '';
    const session = sessions.get(workflowId);
    if (!session) throw ApplicationFailure.nonRetryable(`Run ${workflowId} is not a shadow this replay lab follows (runs of sub-agents are not replayed); nothing was run.`, REPLAY_STOPPED);
    return session;
  };
  /** An activity call's key: its id is only unique within one link of a run (continue-as-new starts again). */
  const activityId = () => `${Context.current().info.workflowExecution?.runId ?? ''}/${Context.current().info.activityId}`;
  /** The recorded answers of one kind of activity, in order, for the ones compared by input. */
  const recordedAnswer = (session: ShadowSession, activity: string, input: unknown): { result: unknown } | undefined => {
    const wanted = canonicalJson(input);
    const found = session.recorded.activities.find((a) => a.activity === activity && canonicalJson(a.input) === wanted);
    return found ? { result: found.result } : undefined;
  };
  /** The real model of the agent's provider, for `--live-model`. */
  const liveFor = (agent: string): { live?: ModelClient } => (liveClients ? { live: liveClients(deps.registry.agents.get(agent)?.provider) } : {});
  /** A judge, guardrail or summary the record has no answer for may ask the model: the live one, or none (the shadow stops). */
  const unrecordedClient = (session: ShadowSession, agent: string, what: string, kind: 'decision' | 'model_request' = 'decision'): ModelClient =>
    shadowModelClient({ session, index: -1, iteration: session.iteration, messages: [], unrecorded: { kind, what }, ...liveFor(agent) });

  // Every activity refuses a run that is not one of the shadows; those without an adapter below are
  // the worker's own as they are (describing agents, checking edits, releasing the shadow's conversation).
  const guard = (fn: (...args: never[]) => unknown) => async (...args: never[]) => {
    sessionOf();
    return fn(...args);
  };
  const guarded = Object.fromEntries(Object.entries(own).map(([name, fn]) => [name, guard(fn)])) as unknown as Activities;
  return {
    ...guarded,
    async resolveAgent(input) {
      sessionOf();
      // The shadow's decisions come from the replay driver; the original's approvers and keys do not apply.
      const { approverKeys: _keys, approvers: _approvers, ...agent } = await own.resolveAgent(input);
      return agent;
    },
    async callModel(input: CallModelInput) {
      const session = sessionOf();
      if (session.stopReason) throw stoppedFailure(session);
      session.iteration = input.iteration;
      const index = session.modelCallIndex(activityId());
      const messages = await materialize(deps.conversations, input.conversation as ConversationRef);
      const client = shadowModelClient({ session, index, iteration: input.iteration, messages, ...liveFor(input.agent) });
      const result = await createCallModel({ ...deps, anthropic: () => client })(input);
      // People's messages the next recorded request carried reach the run now, while this call runs, so
      // the run gives them to its next request as it did when it was recorded (shadow-messages.ts).
      for (const message of session.steering.get(index + 1) ?? []) await deps.temporal().workflow.getHandle(session.shadowId).signal(userMessageSignal, message);
      return result;
    },
    async summarizeConversation(input) {
      const session = sessionOf();
      if (session.stopReason) throw stoppedFailure(session);
      const index = session.summaryIndex(activityId());
      const recorded = session.recorded.summaries[index];
      const messages = (await materialize(deps.conversations, input.conversation as ConversationRef)).slice(input.from, input.to);
      if (!session.leftRecord && recorded && canonicalJson(recorded.messages) === canonicalJson(messages)) return recorded.result as Awaited<ReturnType<Activities['summarizeConversation']>>;
      const iteration = session.iteration;
      if (!session.leftRecord) {
        session.leftRecord = true;
        const what = recorded ? `the shadow compacts other turns (messages ${input.from + 1}-${input.to}) than the recorded run` : 'the shadow compacts its conversation where the recorded run did not';
        session.diverge({ iteration, kind: 'model_request', what, recorded: recorded ? { messages: recorded.messages.length } : null, shadow: { from: input.from, to: input.to } });
      }
      return createSummarizeConversation({ ...deps, anthropic: () => unrecordedClient(session, input.agent ?? '', 'the shadow asks the model for a summary the recorded run did not ask for', 'model_request') })(input);
    },
    runTool: createShadowRunTool(deps, sessionOf),
    async loadPreferences(input) {
      const session = sessionOf();
      // The person's choices as the recorded run read them; the registry of approver keys does not apply.
      // Records of releases before the Nexus tools asked without the agent's name; the person's choices are the same.
      const recorded = (recordedAnswer(session, 'loadPreferences', input) ?? recordedAnswer(session, 'loadPreferences', { user: input.user }))?.result as { rules?: unknown[] } | undefined;
      return { rules: (recorded?.rules ?? []) as Awaited<ReturnType<Activities['loadPreferences']>>['rules'] };
    },
    async savePreference() {
      sessionOf();
    },
    async recordAudit() {
      // A shadow writes no audit log: it decides nothing a person or a tool acts on.
      sessionOf();
      return { lines: [] };
    },
    async copyWorkspace() {
      // The shadow's copy of the original's folder was made before it started (shadow-workspace.ts).
      sessionOf();
      return { copied: false };
    },
    async checkGuardrails(input) {
      const session = sessionOf();
      const recorded = recordedAnswer(session, 'checkGuardrails', input);
      if (recorded) return recorded.result as Awaited<ReturnType<Activities['checkGuardrails']>>;
      return createCheckGuardrails({ ...deps, anthropic: () => unrecordedClient(session, input.agent, `a guardrail (${input.on}) judges what the recorded run's guardrails did not`) })(input);
    },
    async judgeApprovals(input) {
      const session = sessionOf();
      const recorded = recordedAnswer(session, 'judgeApprovals', input);
      if (recorded) return recorded.result as Awaited<ReturnType<Activities['judgeApprovals']>>;
      return createJudgeApprovals({ ...deps, anthropic: () => unrecordedClient(session, input.agent, 'the approval handler judges calls the recorded run did not hand it') })(input);
    },
  };
}
