import { describe, expect, it } from 'vitest';
import { maxCachedWorkflowsFromEnv } from '../../../src/runtime/worker-setup/create-agent-worker';

describe('AGENT_MAX_CACHED_WORKFLOWS', () => {
  it('leaves the SDK default alone unless set, and passes a whole number through', () => {
    expect(maxCachedWorkflowsFromEnv({})).toEqual({});
    expect(maxCachedWorkflowsFromEnv({ AGENT_MAX_CACHED_WORKFLOWS: ' ' })).toEqual({});
    expect(maxCachedWorkflowsFromEnv({ AGENT_MAX_CACHED_WORKFLOWS: '100' })).toEqual({ maxCachedWorkflows: 100 });
    expect(maxCachedWorkflowsFromEnv({ AGENT_MAX_CACHED_WORKFLOWS: '0' })).toEqual({ maxCachedWorkflows: 0 });
  });

  it('refuses anything else, naming the variable', () => {
    for (const bad of ['-1', '1.5', 'many']) expect(() => maxCachedWorkflowsFromEnv({ AGENT_MAX_CACHED_WORKFLOWS: bad })).toThrow(/AGENT_MAX_CACHED_WORKFLOWS/);
  });
});
