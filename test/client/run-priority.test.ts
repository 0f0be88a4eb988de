// Priority and fairness (issue 36): a run's `priority` and `fairnessKey` (default: its user) reach
// Temporal as the workflow's priority, and through the server's inheritance every activity it
// schedules, its sub-agents and its continue-as-new links. Read back from inside the activities
// themselves, on the dev server, with the fake Messages API.
import { Context } from '@temporalio/activity';
import type { Priority } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidRunRequestError } from '../../src/client/errors';
import { startRun } from '../../src/client/start-run';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { ToolResult } from '../../src/contract/tool-result';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { defineTool } from '../../src/runtime/tools/tool-definition';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { callId, stepScript } from '../support/step-script';
import { uniqueId } from '../support/temporal';

/** What each probe call saw: the run it served and the priority of its own activity task. */
const seen: { workflowId: string; runId: string; priority: Priority | undefined }[] = [];

const probeTool = defineTool({
  name: 'priority_probe',
  description: 'Reports the priority of the task it runs in.',
  scope: 'read',
  // An activity task of its own: quick read tools run as local activities, which have no priority.
  quick: false,
  inputSchema: z.object({ n: z.number().int() }),
  async execute() {
    const { workflowExecution, priority } = Context.current().info;
    seen.push({ workflowId: workflowExecution?.workflowId ?? '', runId: workflowExecution?.runId ?? '', priority });
    return ToolResult.success('noted');
  },
});

const general = builtinAgents.find((a) => a.name === 'general')!;
const prober: AgentDefinitionInput = { name: 'prober', description: 'Probes.', modelTier: 'fast', tools: ['priority_probe'], systemPrompt: 'Probe.', maxIterations: 50 };
const lead: AgentDefinitionInput = { ...general, name: 'lead', description: 'Delegates.', tools: [...general.tools, 'priority_probe'], subAgents: ['prober'] };

const complete = (summary: string, id?: string) => reply(toolCall('complete_task', { summary, status: 'success' }, id));
const seenBy = (workflowId: string) => seen.filter((s) => s.workflowId === workflowId);

describe('run priority and fairness key', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, prober, lead], tools: [probeTool] });

  it('reaches every activity of the run, across continue-as-new, and the sub-agents it starts', async () => {
    const task = uniqueId('prio-chain');
    const subTask = uniqueId('prio-sub');
    // Twelve probes: more than a 50-event history holds, so the run continues as new on the way.
    bed.fake.script(task, stepScript((step) => (step < 12 ? reply(toolCall('priority_probe', { n: step }, callId(step))) : step === 12 ? reply(toolCall('delegate_task', { agent: 'prober', task: subTask }, callId(12))) : complete('chain done', callId(step)))));
    bed.fake.script(subTask, [reply(toolCall('priority_probe', { n: 0 }, 'toolu_prio_sub_probe')), complete('sub done')]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const run = await start({ agent: 'lead', task, priority: 2, fairnessKey: 'tenant-a', maxIterations: 40, historyBudget: { maxEvents: 50 }, toolApproval: { alwaysApproved: ['delegate_task'] } });
      expect(await run.result()).toMatchObject({ status: 'completed', completion: { summary: 'chain done' } });

      const mine = seenBy(run.workflowId);
      expect(mine).toHaveLength(12);
      expect(new Set(mine.map((s) => s.runId)).size, 'the probes ran in more than one link').toBeGreaterThan(1);
      for (const s of mine) expect(s.priority).toMatchObject({ priorityKey: 2, fairnessKey: 'tenant-a' });
      const child = seenBy(`${run.workflowId}/sub-${callId(12)}`);
      expect(child).toHaveLength(1);
      expect(child[0]!.priority).toMatchObject({ priorityKey: 2, fairnessKey: 'tenant-a' });
      expect((await run.describe()).raw.workflowExecutionInfo?.priority).toMatchObject({ priorityKey: 2, fairnessKey: 'tenant-a' });
    });
  });

  it("takes the run's user as the fairness key when none is given, and sets nothing for a run that gives neither", async () => {
    const [withUser, plain] = [uniqueId('prio-user'), uniqueId('prio-plain')];
    bed.fake.script(withUser, [reply(toolCall('priority_probe', { n: 0 })), complete('done')]);
    bed.fake.script(plain, [reply(toolCall('priority_probe', { n: 0 })), complete('done')]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const a = await start({ agent: 'prober', task: withUser, user: 'carol' });
      const b = await start({ agent: 'prober', task: plain });
      await Promise.all([a.result(), b.result()]);
      expect(seenBy(a.workflowId)[0]!.priority).toMatchObject({ fairnessKey: 'carol' });
      expect(seenBy(a.workflowId)[0]!.priority?.priorityKey ?? 0).toBe(0);
      const none = seenBy(b.workflowId)[0]!.priority;
      expect(none?.fairnessKey ?? '').toBe('');
      expect(none?.priorityKey ?? 0).toBe(0);
    });
  });

  it('refuses a priority outside 1 to 5 and a fairness key over 64 characters before anything is started', async () => {
    await withAgentWorker(bed.harness(), async ({ client, taskQueue }) => {
      for (const [change, message] of [
        [{ priority: 0 }, /priority must be from 1 \(first\) to 5 \(last\)/],
        [{ priority: 6 }, /priority must be from 1 \(first\) to 5 \(last\)/],
        [{ priority: 2.5 }, /priority must be a whole number/],
        [{ fairnessKey: 'x'.repeat(65) }, /fairnessKey is at most 64 characters/],
      ] as const) {
        const workflowId = uniqueId('prio-bad');
        const error = await startRun(client, { agent: 'prober', task: 't', ...change }, { taskQueue, workflowId }).then(() => undefined, (e: unknown) => e);
        expect(error, JSON.stringify(change)).toBeInstanceOf(InvalidRunRequestError);
        expect((error as Error).message).toMatch(message);
        await expect(client.workflow.getHandle(workflowId).describe()).rejects.toThrow();
      }
    });
  });
});
