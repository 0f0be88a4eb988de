// Builds lifecycle events for the handlers' unit tests, shaped as the workflow emits them.
import type { LifecycleEvent, LifecycleEventName } from '../../../src/contract/lifecycle-event';

export function lifecycleEvent(
  name: LifecycleEventName,
  data: Record<string, unknown> = {},
  overrides: Partial<Omit<LifecycleEvent, 'name' | 'data'>> = {},
): LifecycleEvent {
  const workflowId = overrides.workflowId ?? 'run-1';
  const iteration = overrides.iteration ?? 1;
  const step = typeof data.callId === 'string' ? data.callId : '';
  // Cast: handler tests give only the fields they read (and some give odd ones, to see handlers cope).
  return {
    name,
    at: '2025-01-02T03:04:05.678Z',
    workflowId,
    runId: 'run-id-1',
    agent: 'general',
    iteration,
    key: `${workflowId}/0/${iteration}/${name}/${step}`,
    data,
    ...overrides,
  } as LifecycleEvent;
}

export const usage = (inputTokens: number, outputTokens: number) => ({
  inputTokens,
  outputTokens,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
});
