import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { CompletionSchema } from '../../contract/control-tools';
import { FailureType } from '../../contract/errors';
import type { GuardrailSubject } from '../guardrails/guardrail-types';
import { askModelJudge } from '../guardrails/model-judge';
import type { ActivityDeps } from './activity-deps';

export const CheckGuardrailsInputSchema = z.object({
  agent: z.string(),
  on: z.enum(['input', 'output', 'tool']),
  task: z.string(),
  completion: CompletionSchema.optional(),
  calls: z.array(z.object({ callId: z.string(), tool: z.string(), input: z.unknown() })).default([]),
});
export type CheckGuardrailsInput = z.input<typeof CheckGuardrailsInputSchema>;

export const JudgeApprovalsInputSchema = z.object({
  agent: z.string(),
  task: z.string(),
  calls: z.array(z.object({ callId: z.string(), tool: z.string(), input: z.unknown(), reason: z.string(), context: z.string().optional(), commands: z.array(z.string()).optional() })),
});
export type JudgeApprovalsInput = z.input<typeof JudgeApprovalsInputSchema>;

// JudgeFunctions lives beside the function types, so activity-deps.ts need not import this file back.
export type { JudgeFunctions } from '../guardrails/guardrail-types';

function agentOf(deps: ActivityDeps, name: string) {
  const agent = deps.registry.agents.get(name);
  if (!agent) throw ApplicationFailure.nonRetryable(`Agent "${name}" is not registered on this worker.`, FailureType.UnknownAgent);
  return agent;
}

/**
 * Runs an agent's guardrails of one kind on the task, the completion or each call. A guardrail that
 * cannot run (it throws, or a model judge gives no clear answer) trips: a check that did not happen
 * must not let the run through.
 */
export function createCheckGuardrails(deps: ActivityDeps) {
  return async function checkGuardrails(raw: CheckGuardrailsInput) {
    const input = CheckGuardrailsInputSchema.parse(raw);
    const agent = agentOf(deps, input.agent);
    const subjects: { subject: GuardrailSubject; callId?: string }[] =
      input.on === 'tool'
        ? input.calls.map((c) => ({ callId: c.callId, subject: { on: 'tool', agent: agent.name, task: input.task, tool: c.tool, input: c.input } }))
        : input.on === 'output'
          ? [{ subject: { on: 'output', agent: agent.name, task: input.task, completion: input.completion! } }]
          : [{ subject: { on: 'input', agent: agent.name, task: input.task } }];
    const results: { name: string; pass: boolean; reason?: string; callId?: string }[] = [];
    for (const guardrail of agent.guardrails.filter((g) => g.on === input.on)) {
      for (const { subject, callId } of subjects) {
        if (subject.on === 'tool' && guardrail.tools && !guardrail.tools.includes(subject.tool)) continue;
        try {
          if ('function' in guardrail.check) {
            const verdict = await deps.judges.guardrails[guardrail.check.function]!(subject);
            results.push({ name: guardrail.name, callId, ...(verdict.pass ? { pass: true } : { pass: false, reason: verdict.reason }) });
          } else {
            const answer = await askModelJudge(deps.anthropic(agent.provider), deps.settings.model.tiers, { instructions: guardrail.check.model.instructions, subject, words: ['PASS', 'TRIP'] as const });
            results.push({ name: guardrail.name, callId, pass: answer?.word === 'PASS', reason: answer?.reason ?? 'the guardrail model gave no clear answer' });
          }
        } catch (error) {
          results.push({ name: guardrail.name, callId, pass: false, reason: `the guardrail could not run: ${(error as Error).message}` });
        }
      }
    }
    return results;
  };
}

/** Hands the calls that would park to the agent's approval handler; a handler that fails asks a person. */
export function createJudgeApprovals(deps: ActivityDeps) {
  return async function judgeApprovals(raw: JudgeApprovalsInput) {
    const input = JudgeApprovalsInputSchema.parse(raw);
    const agent = agentOf(deps, input.agent);
    const handler = agent.approvalHandler;
    const verdicts: { callId: string; verdict: 'allow' | 'reject' | 'ask'; reason: string }[] = [];
    for (const call of input.calls) {
      const request = { agent: agent.name, task: input.task, tool: call.tool, input: call.input, reason: call.reason, context: call.context, commands: call.commands };
      try {
        if (!handler) verdicts.push({ callId: call.callId, verdict: 'ask', reason: 'no approval handler' });
        else if ('function' in handler) verdicts.push({ callId: call.callId, ...(await deps.judges.approvalHandlers[handler.function]!(request)) });
        else {
          const answer = await askModelJudge(deps.anthropic(agent.provider), deps.settings.model.tiers, { instructions: handler.model.rubric, subject: request, words: ['ALLOW', 'REJECT', 'ASK'] as const });
          verdicts.push({ callId: call.callId, verdict: (answer?.word.toLowerCase() as 'allow' | 'reject' | 'ask' | undefined) ?? 'ask', reason: answer?.reason ?? 'the judge gave no clear answer' });
        }
      } catch (error) {
        verdicts.push({ callId: call.callId, verdict: 'ask', reason: `the approval handler failed: ${(error as Error).message}` });
      }
    }
    return verdicts;
  };
}
