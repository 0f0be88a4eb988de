// `agentctl list` and the console's run list show how a closed run ended even when the run could not
// say so itself (the AgentStatus attribute stays at `starting` for a run that failed at its start).
import { describe, expect, it } from 'vitest';
import { listQuery, phaseOfListed, toListed } from '../../src/client/list-runs';
import { waitFor, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { uniqueId } from '../support/temporal';

const bed = useAgentTestbed();

describe('phaseOfListed', () => {
  it("keeps a running run's phase and a closed run's own ending, and shows Temporal's status otherwise", () => {
    expect(phaseOfListed('waiting_approval', 'RUNNING')).toBe('waiting_approval');
    expect(phaseOfListed('max_iterations', 'COMPLETED')).toBe('max_iterations');
    expect(phaseOfListed('cancelled', 'CANCELLED')).toBe('cancelled');
    expect(phaseOfListed('starting', 'FAILED')).toBe('failed');
    expect(phaseOfListed(undefined, 'FAILED')).toBe('failed');
    expect(phaseOfListed('waiting_approval', 'TERMINATED')).toBe('terminated');
    expect(phaseOfListed('calling_model', 'TIMED_OUT')).toBe('timed_out');
    expect(phaseOfListed('waiting_approval', 'CONTINUED_AS_NEW')).toBe('waiting_approval');
  });

  it('lists a run that failed before it started as failed, not starting', async () => {
    await withAgentWorker(bed.harness(), async ({ client, start }) => {
      const handle = await start({ agent: 'no-such-agent', task: uniqueId('unknown') });
      await expect(handle.result()).rejects.toThrow();
      const listed = await waitFor(async () => {
        for await (const info of client.workflow.list({ query: `${listQuery({})} AND WorkflowId = '${handle.workflowId}'` })) return toListed(info);
        return undefined;
      }, 'the run in the listing');
      expect(listed).toMatchObject({ workflowId: handle.workflowId, execution: 'FAILED', phase: 'failed' });
    });
  });
});
