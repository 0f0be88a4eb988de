// `decideApprovals` across a run's tree (issue 23 follow-up): a batch sent to the top-level run
// applies its own calls all or none and forwards the others to the sub-agent runs that wait for them;
// a batch naming a call nobody below it waits for is refused whole. Real server, the fake Messages API.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { decideApprovalsUpdate, statusQuery } from '../../src/contract/agent-run-api';
import { approveAllParked } from '../../src/client/decide-all';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { waitForApprovals, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { complete } from './approval-test-kit';

const general = builtinAgents.find((a) => a.name === 'general')!;
const specialist: AgentDefinitionInput = { ...general, name: 'specialist', description: 'Writes files in the workspace.', modelTier: 'fast' };
const lead: AgentDefinitionInput = { ...general, name: 'lead', description: 'Delegates.', subAgents: ['specialist'] };

/** The reason an update was refused with. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  return (error as WorkflowUpdateFailedError).cause?.message ?? '';
}

describe('decideApprovals across sub-agent runs', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, lead, specialist] });
  const fake = bed.fake;
  const write = (file: string, id: string) => toolCall('write_file', { path: file, content: file }, id);
  const delegate = (task: string, id: string) => toolCall('delegate_task', { agent: 'specialist', task }, id);
  const ok = (callId: string) => ({ callId, decision: 'approve' as const });

  /**
   * A lead run whose two sub-agents (started in one turn) each park a write; and an unrelated run
   * parked too. The ids are the script's own, so no two runs share a call id.
   */
  function scriptTree() {
    const [task, subA, subB, otherTask] = [uniqueId('tree-batch'), uniqueId('tree-batch-a'), uniqueId('tree-batch-b'), uniqueId('tree-batch-other')];
    fake.script(task, [reply(delegate(subA, 'toolu_root_a'), delegate(subB, 'toolu_root_b')), complete('lead done')]);
    fake.script(subA, [reply(write('a.txt', 'toolu_a_w')), complete('a done')]);
    fake.script(subB, [reply(write('b.txt', 'toolu_b_w')), complete('b done')]);
    fake.script(otherTask, [reply(write('other.txt', 'toolu_other_w')), complete('other done')]);
    return { task, otherTask };
  }

  it('refuses a whole batch that names a call of a run outside its tree, a call nobody waits for, or a bad edit of a sub-agent\'s call', async () => {
    const { task, otherTask } = scriptTree();
    await withAgentWorker(bed.harness(), async ({ start, client, workspace }) => {
      const root = await start({ agent: 'lead', task });
      const other = await start({ agent: 'general', task: otherTask });
      const [childA, childB] = [`${root.workflowId}/sub-toolu_root_a`, `${root.workflowId}/sub-toolu_root_b`];
      const parked = await waitForApprovals(root, 2, 30_000);
      expect(parked.pendingApprovals.map((p) => [p.callId, p.workflowId]).sort()).toEqual([['toolu_a_w', childA], ['toolu_b_w', childB]]);
      await waitForApprovals(other, 1);

      const outside = await refusal(root.executeUpdate(decideApprovalsUpdate, { args: [{ decisions: [ok('toolu_a_w'), ok('toolu_other_w'), ok('toolu_b_w')] }] }));
      expect(outside).toBe('decision 2 of 3 (approve toolu_other_w) is refused: no pending approval with callId toolu_other_w; decision ignored; nothing was applied');
      const nobody = await refusal(root.executeUpdate(decideApprovalsUpdate, { args: [{ decisions: [ok('toolu_a_w'), ok('toolu_nobody')] }] }));
      expect(nobody).toBe('decision 2 of 2 (approve toolu_nobody) is refused: no pending approval with callId toolu_nobody; decision ignored; nothing was applied');
      // A bad edit of a sub-agent's call is checked here, against the tool's schema, before anything is forwarded.
      const badEdit = await refusal(root.executeUpdate(decideApprovalsUpdate, { args: [{ decisions: [ok('toolu_a_w'), { ...ok('toolu_b_w'), arguments: { path: 7 } }] }] }));
      expect(badEdit).toMatch(/^the edit of toolu_b_w is refused: the edited arguments do not fit write_file's input schema: .*path.*; nothing was applied$/);

      expect((await root.query(statusQuery)).pendingApprovals.map((p) => p.callId).sort()).toEqual(['toolu_a_w', 'toolu_b_w']);
      for (const childId of [childA, childB]) {
        const child = await client.workflow.getHandle(childId).query(statusQuery);
        expect(child.phase).toBe('waiting_approval');
        expect(child.decisions).toEqual([]);
        expect(child.ignored).toEqual([]);
      }
      expect((await other.query(statusQuery)).pendingApprovals.map((p) => p.callId)).toEqual(['toolu_other_w']);
      for (const file of ['a.txt', 'b.txt', 'other.txt']) expect(existsSync(path.join(workspace, file))).toBe(false);
      await other.terminate('test over');
      await root.terminate('test over');
    });
  });

  it('forwards each sub-agent\'s call to the run that waits for it, an edit included', async () => {
    const { task } = scriptTree();
    await withAgentWorker(bed.harness(), async ({ start, client, workspace }) => {
      const root = await start({ agent: 'lead', task });
      const [childA, childB] = [`${root.workflowId}/sub-toolu_root_a`, `${root.workflowId}/sub-toolu_root_b`];
      await waitForApprovals(root, 2, 30_000);
      const edited = { ...ok('toolu_b_w'), approver: 'ana', arguments: { path: 'b-edited.txt', content: 'edited' } };
      const outcome = await root.executeUpdate(decideApprovalsUpdate, { args: [{ decisions: [{ ...ok('toolu_a_w'), approver: 'ana' }, edited] }] });
      expect(outcome).toEqual({
        applied: true,
        // Truthful (issue 32): this run applied nothing itself; each sub-agent run answers for its own part.
        message: `sub-agent runs: toolu_a_w → ${childA}: applied (approve applied to toolu_a_w); toolu_b_w → ${childB}: applied (approve applied to toolu_b_w with the edited arguments)`,
      });
      expect((await root.result()).completion?.summary).toBe('lead done');
      const b = await client.workflow.getHandle(childB).query(statusQuery);
      expect(b.decisions).toEqual([expect.objectContaining({ callId: 'toolu_b_w', decision: 'approve', approver: 'ana' })]);
      expect(existsSync(path.join(workspace, 'a.txt'))).toBe(true);
      expect(await readFile(path.join(workspace, 'b-edited.txt'), 'utf8')).toBe('edited');
      expect(existsSync(path.join(workspace, 'b.txt'))).toBe(false);
    });
  });

  it('approve-all (agentctl approve --all, the console) decides the whole tree in one batch', async () => {
    const { task } = scriptTree();
    await withAgentWorker(bed.harness(), async ({ start, workspace }) => {
      const root = await start({ agent: 'lead', task });
      await waitForApprovals(root, 2, 30_000);
      const { callIds, outcome } = await approveAllParked(root, { approver: 'ana' });
      expect(callIds.sort()).toEqual(['toolu_a_w', 'toolu_b_w']);
      expect(outcome.message).toMatch(/^sub-agent runs: toolu_\w+ → .*: applied \(approve applied to toolu_\w+\); toolu_\w+ → .*: applied \(approve applied to toolu_\w+\)$/);
      expect((await root.result()).completion?.summary).toBe('lead done');
      for (const file of ['a.txt', 'b.txt']) expect(existsSync(path.join(workspace, file))).toBe(true);
    });
  });
});
