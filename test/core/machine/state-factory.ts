// Builds run states and drives the pure state machine without a server: the unit tests of the turn.
import type { ContentBlock, ConversationMessage } from '../../../src/contract/messages';
import type { LifecycleEvent } from '../../../src/contract/lifecycle-event';
import { ContextBudgetSchema } from '../../../src/contract/agent-definition';
import type { RunEvent } from '../../../src/core/machine/run-events';
import { RunStateSchema, type RunState } from '../../../src/core/machine/run-state';
import { type ResolvedAgent } from '../../../src/contract/resolved-agent';
import type { NextStep, StepFeatures } from '../../../src/core/machine/next-step';
import { peekStep, transition } from '../../../src/core/machine/transition';

export const T0 = Date.parse('2026-11-23T10:00:00.000Z');

export const TOOLS: ResolvedAgent['tools'] = {
  read_file: { scope: 'read', idempotent: true, subjectArgument: 'path' },
  list_files: { scope: 'read', idempotent: true, subjectArgument: 'path' },
  write_file: { scope: 'write', idempotent: true, subjectArgument: 'path' },
  shell: { scope: 'execute', idempotent: false, subjectArgument: 'command' },
  deploy: { scope: 'write', idempotent: false },
};

export function runState(overrides: Partial<RunState> = {}): RunState {
  return RunStateSchema.parse({
    schemaVersion: 9,
    workflowId: 'run-1',
    input: { agent: 'general', task: 'the task', user: 'ana', maxIterations: 10, approvalTimeoutSeconds: 3600, historyBudget: { maxEvents: 3000, maxBytes: 3_000_000 } },
    agent: { name: 'general', description: 'd', modelTier: 'balanced', maxIterations: 10, tools: TOOLS, context: ContextBudgetSchema.parse({}) },
    phase: 'running',
    iteration: 0,
    messages: [{ role: 'user', content: 'the task' }],
    conversation: { key: 'run-1/r', generation: 0, syncedCount: 0 },
    usage: { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
    tasks: [],
    savedSummaries: [],
    compactions: 0,
    recentToolCalls: [],
    decisions: [],
    ignored: [],
    preferences: [],
    choicesThisRun: [],
    unsavedPreferences: [],
    events: [],
    chain: { link: 0 },
    startedAt: new Date(T0).toISOString(),
    ...overrides,
  });
}

export const call = (id: string, name: string, input: unknown): ContentBlock => ({ type: 'tool_use', id, name, input });

/** A driver for tests: the state, the clock, every lifecycle event, and the next step. */
export class Machine {
  now = T0;
  events: LifecycleEvent[] = [];
  features: StepFeatures = { compactionByBudget: true, concurrentReadTools: true, localQuickTools: true, waitOutModelOutage: true, toolResultEndsRun: true };
  constructor(public state: RunState = runState()) {}

  send(event: RunEvent): this {
    const result = transition(this.state, event, { now: this.now, runId: 'r1' });
    this.state = result.state;
    this.events.push(...result.events);
    return this;
  }

  /** The model call of a new iteration, answered with `blocks`. */
  reply(...blocks: ContentBlock[]): this {
    const message: ConversationMessage = { role: 'assistant', content: blocks };
    this.send({ type: 'model_call_started' });
    return this.send({ type: 'model_replied', message, usage: { inputTokens: 100, outputTokens: 10, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 }, promptChars: 400, storedCount: this.state.messages.length + 1, storedTag: 't' });
  }

  /** The step the workflow would take now, without taking it (nothing is marked started). */
  next(historyFull = false): NextStep {
    return peekStep(this.state, { now: this.now, runId: 'r1', historyFull, features: this.features });
  }

  /** What the workflow does: `step_wanted`, which hands out the next step and marks what it starts. */
  take(historyFull = false): NextStep {
    const result = transition(this.state, { type: 'step_wanted' }, { now: this.now, runId: 'r1', historyFull, features: this.features });
    this.state = result.state;
    this.events.push(...result.events);
    return result.effects[0]!;
  }

  call(id: string) {
    return this.state.turn?.calls.find((c) => c.id === id);
  }
}
