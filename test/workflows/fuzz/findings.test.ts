// What the fuzzer found on the one-writer code (branch `interleave`, bc92b07), pinned down without
// randomness. Each test states the promise the run should keep; it was `it.fails` until the fix
// (run-driver.ts flushAudit puts a cancelled write's lines back, run-loop.ts endRun writes them).
// (The README's "On the fixed code" section gives the seeds and reports.)
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { approvalSignal, decideApprovalUpdate, statusQuery } from '../../../src/contract/agent-run-api';
import { ToolResult } from '../../../src/contract/tool-result';
import { defineTool } from '../../../src/runtime/tools/tool-definition';
import { withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';
import { parked } from '../approval-test-kit';

const note = defineTool({
  name: 'finding_note',
  description: 'Writes a note (a write, so it needs approval).',
  scope: 'write',
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => ToolResult.success(`noted ${text}`),
});
const noter: AgentDefinitionInput = { name: 'finding-noter', description: 'Takes notes.', modelTier: 'fast', tools: ['finding_note'], systemPrompt: 'You take notes.', maxIterations: 5 };

describe('fuzzer findings on the one-writer code', () => {
  const bed = useAgentTestbed({ agents: [noter], tools: [note] });

  // Seed 42 (state-matches-audit): "reject of toolu_…_1_0 by …-m7 via signal is in the run's state but
  // has no audit line". An approval signal and a cancel reach the run in one workflow task: the loop
  // applies the decision (it is in `status.decisions`), its audit write is started in the cancelled
  // scope and never runs, and `endRun` writes nothing. Here no worker polls while both are sent, so
  // they land in one task every time.
  it('a decision the run applied in the task that cancels it has its audit line', async () => {
    const task = uniqueId('finding-cancel');
    const taskQueue = uniqueId('q');
    const auditLog = path.join(await mkdtemp(path.join(tmpdir(), 'finding-audit-')), 'audit.log');
    bed.fake.script(task, [reply(toolCall('finding_note', { text: 'one' }))]);
    const workflowId = await withAgentWorker({ ...bed.harness(), auditLog, taskQueue, keepRuns: true }, async ({ start }) => {
      const handle = await start({ agent: 'finding-noter', task });
      await parked(handle);
      return handle.workflowId;
    });
    const connection = await Connection.connect({ address: temporalAddress() });
    try {
      const handle = new Client({ connection }).workflow.getHandle(workflowId);
      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'reject', approver: 'finding', reason: 'finding' });
      await handle.cancel();
      // A closed run answers queries through a worker (it replays the run).
      const status = await withAgentWorker({ ...bed.harness(), auditLog, taskQueue }, async () => {
        await expect(handle.result()).rejects.toThrow(/cancel/i);
        return handle.query(statusQuery);
      });
      const decided = status.decisions.filter((d) => d.callId === 'toolu_0_0' && d.approver === 'finding');
      const lines = (await readFile(auditLog, 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { kind: string; callId?: string; approver?: string });
      const audited = lines.filter((l) => l.kind === 'decision' && l.callId === 'toolu_0_0' && l.approver === 'finding');
      // Either the decision was refused (the run was cancelled) and is in neither, or it was applied and
      // is in both. Today: { inState: 1, inAudit: 0 }.
      expect({ inState: decided.length, inAudit: audited.length }).toEqual({ inState: decided.length, inAudit: decided.length });
    } finally {
      await connection.close();
    }
  });

  // Seed 84 (answer-matches-log): "decideApproval …-m7 was refused ("The run was cancelled before this
  // could be applied"), but the audit log has its decision on toolu_…_1_1 (line 7)" and so has the
  // state. A `decideApproval` update and a cancel reach the run in one workflow task: the loop applies
  // the decision, its audit write is cancelled (endRun writes it), and the letter is answered "refused"
  // although the decision stands. Here no worker polls while both are sent, so they land in one task.
  it('an update applied in the task that cancels the run is answered applied, with its audit line', async () => {
    const task = uniqueId('finding-cancel-update');
    const taskQueue = uniqueId('q');
    const auditLog = path.join(await mkdtemp(path.join(tmpdir(), 'finding-audit-')), 'audit.log');
    bed.fake.script(task, [reply(toolCall('finding_note', { text: 'one' }))]);
    const workflowId = await withAgentWorker({ ...bed.harness(), auditLog, taskQueue, keepRuns: true }, async ({ start }) => {
      const handle = await start({ agent: 'finding-noter', task });
      await parked(handle);
      return handle.workflowId;
    });
    const connection = await Connection.connect({ address: temporalAddress() });
    try {
      const handle = new Client({ connection }).workflow.getHandle(workflowId);
      const answer = handle
        .executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'reject', approver: 'finding', reason: 'finding' }] })
        .then((outcome) => ({ applied: outcome.applied, message: outcome.message }))
        .catch((error: unknown) => ({ applied: false, message: error instanceof Error ? error.message : String(error) }));
      // The update is admitted (it waits for a worker) before the cancel is requested.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await handle.cancel();
      const { status, outcome } = await withAgentWorker({ ...bed.harness(), auditLog, taskQueue }, async () => {
        const outcome = await answer;
        await expect(handle.result()).rejects.toThrow(/cancel/i);
        return { status: await handle.query(statusQuery), outcome };
      });
      const decided = status.decisions.filter((d) => d.callId === 'toolu_0_0' && d.approver === 'finding');
      const lines = (await readFile(auditLog, 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { kind: string; callId?: string; approver?: string });
      const audited = lines.filter((l) => l.kind === 'decision' && l.callId === 'toolu_0_0' && l.approver === 'finding');
      // Applied: in the state and the audit log; refused: in neither. Before the fix: refused, in both.
      const seen = { applied: outcome.applied, inState: decided.length, inAudit: audited.length };
      expect(seen, outcome.message).toEqual(outcome.applied ? { applied: true, inState: 1, inAudit: 1 } : { applied: false, inState: 0, inAudit: 0 });
    } finally {
      await connection.close();
    }
  });
});
