import { describe, expectTypeOf, it } from 'vitest';
import type { AgentRunWorkflow } from '../../src/contract/agent-run-api';
import type { agentRun } from '../../src/workflows/agent-run';

describe('AgentRunWorkflow', () => {
  // Typed handles in the client name AgentRunWorkflow rather than the workflow function; tsc (run by
  // `npm run typecheck`) fails here if the workflow's call shape drifts away from it.
  it('is the call shape of the agentRun workflow', () => {
    expectTypeOf<typeof agentRun>().toEqualTypeOf<AgentRunWorkflow>();
  });
});
