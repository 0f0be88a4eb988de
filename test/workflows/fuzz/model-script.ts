// Turns a schedule's turns and model faults into scripts of the project's fake Messages API (real
// HTTP, real SDK). A reply is chosen by how many assistant messages the request carries, so retries,
// worker restarts and continue-as-new get the same answer; failures are served once each, in order,
// before the reply they precede.
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { fail, disconnect, reply, toolCall, type FakeAnthropic, type Step } from '../../../src/testing/scripted-model';
import type { ModelFault, Schedule, Turn } from './schedule';

export const MAIN_AGENT = 'fuzz';
export const CHILD_AGENT = 'fuzz-child';

/** The agents every schedule runs: a parent with the canaries and a sub-agent with the same canaries. */
export const fuzzAgents: AgentDefinitionInput[] = [
  {
    name: MAIN_AGENT,
    description: 'Works through a fuzzer schedule.',
    modelTier: 'balanced',
    tools: ['canary_write', 'canary_edit', 'canary_read'],
    subAgents: [CHILD_AGENT],
    systemPrompt: 'You follow the fuzzer schedule.',
    maxIterations: 80,
  },
  {
    name: CHILD_AGENT,
    description: 'A sub-agent of the fuzzer that parks on its writes.',
    modelTier: 'fast',
    tools: ['canary_write', 'canary_edit', 'canary_read'],
    systemPrompt: 'You follow the fuzzer schedule as a sub-agent.',
    maxIterations: 40,
  },
];

/** Replies past the planned turns (a thread's later follow-ups) complete at once. */
const SPARE_REPLIES = 80;

/** The task texts a schedule's runs are started with; the fake picks a script by them. */
export interface ScriptedTasks {
  main: string;
  /** The sub-agent's task of a delegation in reply `index`. */
  child: (index: number) => string;
  /** The call-id prefix of the main run's calls and of each sub-agent's, so ids never repeat in a tree. */
  callPrefix: string;
}

export function tasksOf(tag: string): ScriptedTasks {
  return {
    main: `[${tag}:main] Work through the fuzzer schedule.`,
    child: (index) => `[${tag}:child${index}] Work through the sub-agent's part.`,
    callPrefix: `toolu_${tag}`,
  };
}

function blocksOf(turn: Turn | undefined, index: number, prefix: string, tasks: ScriptedTasks) {
  if (!turn || 'complete' in turn) return [toolCall('complete_task', { summary: `done at reply ${index}`, status: 'success' }, `${prefix}_${index}_c`)];
  return turn.calls.map((call, n) => {
    const id = `${prefix}_${index}_${n}`;
    switch (call.tool) {
      case 'ask':
        return toolCall('need_more_information', { question: `question of reply ${index}?` }, id);
      case 'delegate':
        return toolCall('delegate_task', { agent: CHILD_AGENT, task: tasks.child(index) }, id);
      default:
        return toolCall(call.tool, { step: index, fault: call.fault }, id);
    }
  });
}

function stepsOf(turns: Turn[], faults: Record<number, ModelFault>, prefix: string, tasks: ScriptedTasks): Step[] {
  const steps: Step[] = [];
  for (let index = 0; index < turns.length + SPARE_REPLIES; index++) {
    const fault = faults[index];
    for (const failure of fault?.failures ?? []) steps.push(failure === 'disconnect' ? disconnect() : fail(Number(failure), { retryAfterMs: 100 }));
    const answer = reply(...blocksOf(turns[index], index, prefix, tasks));
    steps.push(fault?.slowMs ? answer.delay(fault.slowMs) : answer);
  }
  return steps;
}

/** Registers the scripts of one execution of a schedule (its tag keeps them apart from every other). */
export function scriptSchedule(fake: FakeAnthropic, schedule: Schedule, tag: string): ScriptedTasks {
  const tasks = tasksOf(tag);
  fake.script(tasks.main.slice(0, tasks.main.indexOf(']') + 1), stepsOf(schedule.turns, schedule.modelFaults, tasks.callPrefix, tasks));
  schedule.turns.forEach((turn, index) => {
    if (!('calls' in turn) || !turn.calls.some((c) => c.tool === 'delegate')) return;
    const child = tasks.child(index);
    fake.script(child.slice(0, child.indexOf(']') + 1), stepsOf(schedule.childTurns, schedule.childModelFaults, `${tasks.callPrefix}c${index}`, tasks));
  });
  return tasks;
}
