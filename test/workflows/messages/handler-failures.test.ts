// Issue 31, findings 4 and 5: nothing a message handler meets fails the run (a decision forwarded to a
// sub-agent's run that has closed is recorded as ignored), and every update answers truthfully (an
// edited decision that lost the race to another decision is not reported as applied).
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { WorkflowUpdateFailedError, WorkflowUpdateStage } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { approvalSignal, decideApprovalUpdate, statusQuery } from '../../../src/contract/agent-run-api';
import { ToolResult } from '../../../src/contract/tool-result';
import { builtinAgents } from '../../../src/runtime/agents/builtin-agents';
import { defineTool } from '../../../src/runtime/tools/tool-definition';
import { waitFor, waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';
import { complete, parked } from '../approval-test-kit';

const general = builtinAgents.find((a) => a.name === 'general')!;
const specialist: AgentDefinitionInput = { ...general, name: 'specialist', description: 'Writes files.', modelTier: 'fast' };
const coordinator: AgentDefinitionInput = { ...general, name: 'coordinator', description: 'Delegates.', tools: ['read_file'], subAgents: ['specialist'] };

/** A write whose edits the worker analyses only when the test lets it: the edit's check is held. */
let releaseAnalysis: () => void = () => undefined;
const noted = defineTool({
  name: 'note',
  description: 'Writes a note (a write, so it needs approval).',
  scope: 'write',
  inputSchema: z.object({ text: z.string() }),
  analyze: async ({ text }) => {
    // The model's own call is analysed when it arrives; only the person's edit is held.
    if (text === 'edited') await new Promise<void>((resolve) => (releaseAnalysis = resolve));
    return { understood: true, commands: [], writes: [], problems: [] };
  },
  async execute({ text }, ctx) {
    await writeFile(path.join(ctx.workspaceRoot, 'note.txt'), text);
    return ToolResult.success(`noted ${text}`);
  },
});
const noter: AgentDefinitionInput = { name: 'noter', description: 'Takes notes.', modelTier: 'fast', tools: ['note'], systemPrompt: 'You take notes.', maxIterations: 5 };

describe('message handlers never fail the run, and answer truthfully', () => {
  const bed = useAgentTestbed({ agents: [coordinator, specialist, general, noter], tools: [noted] });
  const fake = bed.fake;

  it('records a decision it could not forward to a sub-agent run that has closed, and goes on', async () => {
    const task = uniqueId('closed-child');
    const subTask = uniqueId('closed-child-sub');
    fake.script(task, [reply(toolCall('delegate_task', { agent: 'specialist', task: subTask })), complete('went on without it')]);
    fake.script(subTask, [reply(toolCall('write_file', { path: 'child.txt', content: 'x' })), complete('never')]);
    const taskQueue = uniqueId('q');
    let parentId = '';
    await withAgentWorker({ ...bed.harness(), taskQueue, keepRuns: true }, async ({ start }) => {
      const parent = await start({ agent: 'coordinator', task });
      parentId = parent.workflowId;
      const status = await waitForApprovals(parent, 1, 30_000);
      expect(status.pendingApprovals[0]).toMatchObject({ callId: 'toolu_0_0', workflowId: `${parentId}/sub-toolu_0_0` });
    });
    // With no worker up, the sub-agent's run ends and a decision for its call reaches the parent: the
    // parent's next workflow task holds both, the signal first.
    await withAgentWorker({ ...bed.harness(), taskQueue: uniqueId('idle') }, async ({ client }) => {
      await client.workflow.getHandle(`${parentId}/sub-toolu_0_0`).terminate('the sub-agent run is gone');
      await client.workflow.getHandle(parentId).signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve' });
    });
    await withAgentWorker({ ...bed.harness(), taskQueue }, async ({ client }) => {
      const parent = client.workflow.getHandle(parentId);
      const result = await parent.result();
      expect(result).toMatchObject({ status: 'completed', completion: { summary: 'went on without it' } });
      const status = await parent.query(statusQuery);
      expect(status.ignored).toEqual([expect.objectContaining({ kind: 'approval', reason: expect.stringMatching(/toolu_0_0.*not delivered|could not be forwarded/) })]);
    });
  });

  it('an edited decision that another decision overtook answers what really happened', async () => {
    const task = uniqueId('overtaken');
    fake.script(task, [reply(toolCall('note', { text: 'original' })), complete()]);
    await withAgentWorker(bed.harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'noter', task });
      await parked(handle);
      const edited = await handle.startUpdate(decideApprovalUpdate, {
        args: [{ callId: 'toolu_0_0', decision: 'approve', approver: 'ann', arguments: { text: 'edited' } }],
        waitForStage: WorkflowUpdateStage.ACCEPTED,
      });
      // A plain approval arrives while the worker checks the edit, and the run has taken it in.
      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve', approver: 'bob' });
      await waitFor(async () => {
        const events = (await handle.fetchHistory()).events ?? [];
        const signalled = events.findIndex((e) => e.workflowExecutionSignaledEventAttributes);
        return signalled >= 0 && events.slice(signalled).some((e) => e.workflowTaskCompletedEventAttributes) ? true : undefined;
      }, 'the signal to be handled');
      releaseAnalysis();
      const answer = await edited.result().then(
        (o) => ({ applied: o.applied, message: o.message }),
        (e: unknown) => ({ refused: e instanceof WorkflowUpdateFailedError ? (e.cause?.message ?? '') : String(e) }),
      );
      expect((await handle.result()).status).toBe('completed');
      const decision = (await handle.query(statusQuery)).decisions.filter((d) => d.callId === 'toolu_0_0');
      const note = await readFile(path.join(workspace, 'note.txt'), 'utf8');
      expect(decision).toHaveLength(1);
      if ('applied' in answer && answer.applied) {
        expect({ approver: decision[0]!.approver, note }).toEqual({ approver: 'ann', note: 'edited' });
      } else {
        expect({ approver: decision[0]!.approver, note }).toEqual({ approver: 'bob', note: 'original' });
        expect(answer).toEqual({ refused: expect.stringMatching(/already decided/) });
      }
    });
  });
});
