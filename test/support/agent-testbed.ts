// The hooks every server-backed test file repeats, in one place: one fake Messages API and one
// workflow bundle per file, a check after each test that the fake saw no unscripted request, cleanup.
import type { WorkflowBundle } from '@temporalio/worker';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { bundleAgentWorkflows, type HarnessOptions } from './agent-run-harness';
import { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions } from './fake-anthropic';

export interface AgentTestbed {
  /** The file's fake; usable from inside tests (it exists once `beforeAll` has run). */
  fake: FakeAnthropic;
  /** Options for `withAgentWorker`: the fake, the shared bundle and whatever the file adds. */
  harness(): HarnessOptions;
}

/** One fake Messages API and one workflow bundle for the file, closed after it. */
export function useFakeModel(extra: Omit<Partial<HarnessOptions>, 'fake' | 'workflowBundle'> = {}, fakeOptions: FakeAnthropicOptions = {}): AgentTestbed {
  let fake: FakeAnthropic | undefined;
  let workflowBundle: WorkflowBundle | undefined;
  beforeAll(async () => {
    [fake, workflowBundle] = await Promise.all([startFakeAnthropic(fakeOptions), bundleAgentWorkflows()]);
  });
  afterAll(() => fake?.close());
  // A forwarding object, so test files can hold `fake` as a constant although it is created later.
  const forward = new Proxy({} as FakeAnthropic, {
    get(_target, property) {
      const value = Reflect.get(fake!, property);
      return typeof value === 'function' ? value.bind(fake) : value;
    },
  });
  return { fake: forward, harness: () => ({ fake: fake!, workflowBundle: workflowBundle!, ...extra }) };
}

/** `useFakeModel`, plus a check after each test that the fake saw no unscripted request, and a reset. */
export function useAgentTestbed(extra: Omit<Partial<HarnessOptions>, 'fake' | 'workflowBundle'> = {}, fakeOptions: FakeAnthropicOptions = {}): AgentTestbed {
  const bed = useFakeModel(extra, fakeOptions);
  afterEach(() => {
    expect(bed.fake.errors).toEqual([]);
    bed.fake.reset();
  });
  return bed;
}
