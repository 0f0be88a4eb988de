// The guardrail and approval-handler activities, called directly: a check that could not run must
// not let anything through, and an approval handler that fails hands the call to a person.
import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { parseWorkerSettings } from '../../../src/runtime/config/worker-settings';
import type { ActivityDeps } from '../../../src/runtime/activities/activity-deps';
import { createCheckGuardrails, createJudgeApprovals } from '../../../src/runtime/activities/guardrails';
import { type JudgeFunctions } from '../../../src/runtime/guardrails/guardrail-types';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { createAgentRegistry } from '../../../src/runtime/agents/agent-registry';
import { builtinTools } from '../../../src/runtime/tools/builtin';

const base: AgentDefinitionInput = {
  name: 'guarded',
  description: 'Has guardrails and an approval handler.',
  modelTier: 'balanced',
  tools: ['write_file'],
  systemPrompt: 'You write files.',
  maxIterations: 5,
};

/** A model client whose judge answers with `text` (or fails with `error`). */
function judgeModel(answer: { text: string } | { error: Error }): Anthropic {
  const create = async () => {
    if ('error' in answer) throw answer.error;
    return { id: 'msg_1', model: 'judge', stop_reason: 'end_turn', content: [{ type: 'text', text: answer.text }], usage: { input_tokens: 1, output_tokens: 1 } };
  };
  return { messages: { create } } as unknown as Anthropic;
}

function deps(agent: AgentDefinitionInput, judges: Partial<JudgeFunctions>, anthropic: Anthropic = judgeModel({ text: 'PASS: fine' })): ActivityDeps {
  return {
    registry: createAgentRegistry([agent], builtinTools),
    judges: { guardrails: {}, approvalHandlers: {}, ...judges },
    anthropic: () => anthropic,
    settings: parseWorkerSettings({ AGENT_AUDIT_LOG: 'off' }),
  } as unknown as ActivityDeps;
}

describe('checkGuardrails', () => {
  it('trips a guardrail that cannot run: a function that throws, a model judge with no clear answer or a failed call', async () => {
    const agent: AgentDefinitionInput = {
      ...base,
      guardrails: [
        { name: 'throws', on: 'input', check: { function: 'broken' } },
        { name: 'judge', on: 'input', check: { model: { instructions: 'Trip on secrets.' } } },
      ],
    };
    const broken = () => {
      throw new Error('lookup service down');
    };
    const check = (anthropic: Anthropic) => createCheckGuardrails(deps(agent, { guardrails: { broken } }, anthropic))({ agent: 'guarded', on: 'input', task: 'do it' });

    expect(await check(judgeModel({ text: 'Maybe? Hard to say.' }))).toEqual([
      { name: 'throws', pass: false, reason: 'the guardrail could not run: lookup service down' },
      { name: 'judge', pass: false, reason: 'the guardrail model gave no clear answer' },
    ]);
    expect((await check(judgeModel({ error: new Error('overloaded') })))[1]).toMatchObject({ name: 'judge', pass: false, reason: expect.stringContaining('could not run') });
    // The same judge passes when it answers clearly, so the trips above come from the failures.
    expect((await check(judgeModel({ text: 'PASS: nothing secret' })))[1]).toEqual({ name: 'judge', pass: true, reason: 'nothing secret' });
  });
});

describe('judgeApprovals', () => {
  it('asks a person when the approval handler fails, throwing or with no clear answer from its judge', async () => {
    const call = { callId: 'c1', tool: 'write_file', input: { path: 'a.txt', content: 'a' }, reason: 'writes a file' };
    const failing = () => {
      throw new Error('policy service down');
    };
    const byFunction = createJudgeApprovals(deps({ ...base, approvalHandler: { function: 'failing' } }, { approvalHandlers: { failing } }));
    expect(await byFunction({ agent: 'guarded', task: 't', calls: [call] })).toEqual([
      { callId: 'c1', verdict: 'ask', reason: 'the approval handler failed: policy service down' },
    ]);

    const judged = (text: string) =>
      createJudgeApprovals(deps({ ...base, approvalHandler: { model: { rubric: 'Allow writes to a.txt.' } } }, {}, judgeModel({ text })))({ agent: 'guarded', task: 't', calls: [call] });
    expect(await judged('Sure, whatever.')).toEqual([{ callId: 'c1', verdict: 'ask', reason: 'the judge gave no clear answer' }]);
    expect(await judged('ALLOW: a.txt is fine')).toEqual([{ callId: 'c1', verdict: 'allow', reason: 'a.txt is fine' }]);
  });
});
