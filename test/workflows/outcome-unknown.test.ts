// What the model is told when a call that must not run twice ends without an answer, on a real
// worker and server: a call that ran past its time limit timed out, and says so. (A worker that
// really stops is test/worker/crash-recovery.test.ts: that one says the worker stopped.)
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { ToolResult } from '../../src/contract/tool-result';
import { OUTCOME_UNKNOWN_PREFIX } from '../../src/core/machine/on-tool';
import { defineTool } from '../../src/runtime/tools/tool-definition';
import { toolResultsIn, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';

/** A tool that is not safe to run twice and runs far past its 2-second limit, heartbeating all along. */
const slowDeploy = defineTool({
  name: 'slow_deploy',
  description: 'Deploys, slowly.',
  scope: 'write',
  idempotent: false,
  timeoutSeconds: 2,
  inputSchema: z.object({}),
  async execute(_input, context) {
    for (let i = 0; i < 40 && !context.signal.aborted; i += 1) {
      context.heartbeat();
      await sleep(200);
    }
    return ToolResult.success('deployed');
  },
});

const agent: AgentDefinitionInput = {
  name: 'deployer',
  description: 'Deploys.',
  modelTier: 'balanced',
  tools: ['slow_deploy'],
  systemPrompt: 'Deploy.',
  maxIterations: 5,
};

describe('a call that must not run twice and gets no answer', () => {
  const bed = useAgentTestbed();

  // Written first and seen failing: it said "the worker running this call stopped", though the worker ran on.
  it('says it timed out when it ran past its time limit, not that the worker stopped', async () => {
    const task = uniqueId('timeout');
    bed.fake.script(task, [reply(toolCall('slow_deploy', {})), reply(toolCall('complete_task', { summary: 'done', status: 'success' }))]);
    await withAgentWorker({ ...bed.harness(), agents: [agent], tools: [slowDeploy] }, async ({ start }) => {
      await (await start({ agent: 'deployer', task, toolApproval: { alwaysApproved: ['slow_deploy'] } })).result();
    });
    const told = toolResultsIn(bed.fake.requestsFor(task)[1])[0]!;
    expect(told.is_error).toBe(true);
    expect(told.content).toMatch(new RegExp(`^${OUTCOME_UNKNOWN_PREFIX}: the call timed out \\(it ran longer than its limit of 2 s\\); it may or may not have taken effect; check before retrying\\.`));
    expect(told.content).toContain('slow_deploy is not safe to run twice, so it was not run again');
    expect(told.content).not.toContain('worker');
  });
});
