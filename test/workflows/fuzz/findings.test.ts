// What the fuzzer found on the one-writer code (branch `interleave`, bc92b07), pinned down without
// randomness. Each test states the promise the run should keep; it was `it.fails` until the fix
// (run-driver.ts flushAudit puts a cancelled write's lines back, run-loop.ts endRun writes them; the
// last one: flushAudit writes only once the deciding task is committed, patch `audit-after-commit`).
// (The README's "On the fixed code" section gives the seeds and reports.)
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { approvalSignal, decideApprovalUpdate, statusQuery } from '../../../src/contract/agent-run-api';
import { withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';
import { parked } from '../approval-test-kit';
import { findingNote as note, findingNoter as noter } from './support/finding-agents';

const repoRoot = path.resolve(__dirname, '../../..');

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
  // Seed 1 with worker restarts (decided-twice, answer-matches-log, state-matches-audit): "an update
  // decideApproval was answered 'already decided', yet the audit log's line 1 is its approval and line 2
  // a signal's". The workflow task that accepted the update ran `recordAudit` (a local activity: the
  // line went to disk), and the server never kept that task (the worker restarted). The retried task
  // saw the signal first, applied it and refused the update, whose line stayed in the log. Here the
  // worker process dies right after that line is on disk, every time.
  it('a decision line is written only by a workflow task the server kept', async () => {
    const task = uniqueId('finding-lost-task');
    const taskQueue = uniqueId('q');
    const auditLog = path.join(await mkdtemp(path.join(tmpdir(), 'finding-audit-')), 'audit.log');
    bed.fake.script(task, [reply(toolCall('finding_note', { text: 'one' })), reply(toolCall('complete_task', { summary: 'noted', status: 'success' }))]);
    const connection = await Connection.connect({ address: temporalAddress() });
    const child = spawn(path.join(repoRoot, 'node_modules/.bin/tsx'), ['test/workflows/fuzz/support/crash-after-line-worker.ts'], {
      cwd: repoRoot,
      env: { ...process.env, TEMPORAL_ADDRESS: temporalAddress(), AGENT_TASK_QUEUE: taskQueue, AGENT_AUDIT_LOG: auditLog, ANTHROPIC_BASE_URL: bed.fake.baseUrl, CRASH_AFTER_APPROVER: 'finding-alice' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      const client = new Client({ connection });
      // A short workflow task timeout: the task the dead worker held is handed on within seconds.
      const handle = await client.workflow.start('agentRun', { taskQueue, workflowId: uniqueId('finding-lost-task'), args: [{ agent: 'finding-noter', task }], workflowTaskTimeout: '2 seconds' });
      await parked(handle);
      const answer = handle
        .executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'approve', approver: 'finding-alice', reason: 'alice' }] })
        .then((outcome) => ({ applied: outcome.applied, message: outcome.message }))
        .catch((error: unknown) => ({ applied: false, message: error instanceof Error ? error.message : String(error) }));
      // The worker dies once Alice's line is on disk; Bob's signal comes before any worker takes the task up again.
      await Promise.race([exited, new Promise((_, reject) => setTimeout(() => reject(new Error(`the worker did not die after writing the line:\n${output.join('')}`)), 60_000))]);
      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'reject', approver: 'finding-bob', reason: 'bob' });
      const { status, outcome } = await withAgentWorker({ ...bed.harness(), agents: [noter], tools: [note], auditLog, taskQueue }, async () => {
        const outcome = await answer;
        await handle.result();
        return { status: await handle.query(statusQuery), outcome };
      });
      const decided = status.decisions.filter((d) => d.callId === 'toolu_0_0').map((d) => `${d.decision} by ${d.approver}`);
      const lines = (await readFile(auditLog, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { kind: string; callId?: string; approver?: string; decision?: string; seq: number })
        .filter((l) => l.kind === 'decision' && l.callId === 'toolu_0_0' && (l.approver === 'finding-alice' || l.approver === 'finding-bob'))
        .map((l) => `${l.decision} by ${l.approver}`);
      // One decision, the same in the state and the log, and the update told the truth about it.
      // Before the fix: lines ["approve by finding-alice", "reject by finding-bob"], state Bob's, update refused.
      expect({ decided, lines, applied: outcome.applied }, outcome.message).toEqual({ decided, lines: decided, applied: decided[0] === 'approve by finding-alice' });
      expect(decided).toHaveLength(1);
    } finally {
      if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      await connection.close();
    }
  });
});
