// Issue 23, item 4: the run's permission mode (input `mode`, the agent's default, update `setMode`).
// Real server, the scripted fake Messages API.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { approvalSignal, setModeUpdate, statusQuery } from '../../src/contract/agent-run-api';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { complete, parked, resultsIn, shell, write } from './approval-test-kit';

const planner: AgentDefinitionInput = {
  name: 'planner',
  description: 'Plans first.',
  modelTier: 'fast',
  tools: ['read_file', 'write_file', 'shell'],
  systemPrompt: 'You plan.',
  maxIterations: 10,
  mode: 'plan',
};

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  return (error as WorkflowUpdateFailedError).cause?.message ?? '';
}

describe('permission modes', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, planner] });
  const fake = bed.fake;

  it('plan mode parks nothing and writes nothing: reads run, writes and commands are refused with a plan-mode result', async () => {
    const task = uniqueId('plan');
    fake.script(task, [reply(toolCall('list_files', { path: '.' }), write('plan.txt'), shell('touch ran.txt'), toolCall('delegate_task', { agent: 'general', task: 'x' })), complete()]);
    await withAgentWorker(bed.harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task, mode: 'plan' });
      expect((await handle.result()).status).toBe('completed');
      const status = await handle.query(statusQuery);
      expect(status.decisions.map((d) => [d.callId, d.decision])).toEqual([['toolu_0_1', 'policy_reject'], ['toolu_0_2', 'policy_reject'], ['toolu_0_3', 'policy_reject']]);
      expect(status.events.some((e) => e.name === 'approvalRequested')).toBe(false);
      expect(existsSync(path.join(workspace, 'plan.txt'))).toBe(false);
      expect(existsSync(path.join(workspace, 'ran.txt'))).toBe(false);
    });
    const [listed, wrote, ran, delegated] = resultsIn(fake.requestsFor(task)[1]);
    expect(listed?.is_error).toBeUndefined();
    for (const refused of [wrote, ran, delegated]) {
      expect(refused).toMatchObject({ is_error: true });
      expect(refused?.content).toContain('this run is in plan mode, where only read tools run');
    }
  });

  it("an agent's default mode applies unless the run names one", async () => {
    const task = uniqueId('agent-mode');
    fake.script(task, [reply(write('x.txt')), complete()]);
    await withAgentWorker(bed.harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'planner', task });
      expect((await handle.result()).status).toBe('completed');
      expect(existsSync(path.join(workspace, 'x.txt'))).toBe(false);
    });
    expect(resultsIn(fake.requestsFor(task)[1])[0]?.content).toContain('plan mode');
  });

  it('acceptEdits writes without asking but parks a command; a reject rule still wins', async () => {
    const task = uniqueId('accept-edits');
    fake.script(task, [reply(write('edit.txt', 'accepted'), write('secret.env'), shell('touch cmd.txt')), complete()]);
    const toolApproval = { alwaysRejected: [{ tool: 'write_file', argument: 'path', argumentsMatch: '\\.env$' }] };
    await withAgentWorker(bed.harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task, mode: 'acceptEdits', toolApproval });
      const status = await parked(handle);
      expect(status.pendingApprovals.map((p) => p.callId)).toEqual(['toolu_0_2']);
      // The write the mode let through is on the record as decided by the mode (issue 34), the .env write as refused.
      expect(status.decisions).toEqual([
        expect.objectContaining({ callId: 'toolu_0_0', decision: 'policy_allow', reason: expect.stringMatching(/^decided by the mode: acceptEdits/) }),
        expect.objectContaining({ callId: 'toolu_0_1', decision: 'policy_reject' }),
      ]);
      // The turn's calls run once none waits; the write asked nobody.
      expect(existsSync(path.join(workspace, 'cmd.txt'))).toBe(false);
      await handle.signal(approvalSignal, { callId: 'toolu_0_2', decision: 'approve' });
      expect((await handle.result()).status).toBe('completed');
      expect(await readFile(path.join(workspace, 'edit.txt'), 'utf8')).toBe('accepted');
      expect(existsSync(path.join(workspace, 'secret.env'))).toBe(false);
      expect(existsSync(path.join(workspace, 'cmd.txt'))).toBe(true);
    });
  });

  it('acceptEdits lets no write past the workspace or into a protected path, however the path is written: those ask a person', async () => {
    const task = uniqueId('accept-edits-hostile');
    const hook = '[core]\n\tfsmonitor = "touch PWNED"\n';
    fake.script(task, [
      reply(write('.git/config', hook), write('notes/../.git/hooks/pre-commit', 'touch PWNED'), write('./.envrc', 'touch PWNED'), write('../escaped.txt')),
      complete(),
    ]);
    await withAgentWorker(bed.harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task, mode: 'acceptEdits' });
      // The three protected writes park: a protected path needs a person, not a mode (issue 30).
      const waiting = await parked(handle, 3);
      expect(waiting.pendingApprovals.map((p) => p.callId)).toEqual(['toolu_0_0', 'toolu_0_1', 'toolu_0_2']);
      for (const p of waiting.pendingApprovals) {
        expect(p.reason).toMatch(/protected path/);
        await handle.signal(approvalSignal, { callId: p.callId, decision: 'reject', approver: 'ann' });
      }
      expect((await handle.result()).status).toBe('completed');
      for (const file of ['.git/config', '.git/hooks/pre-commit', '.envrc']) expect(existsSync(path.join(workspace, file)), file).toBe(false);
      expect(existsSync(path.join(workspace, '..', 'escaped.txt'))).toBe(false);
      const results = resultsIn(fake.requestsFor(task)[1]!);
      for (const r of results) expect(r.is_error, r.content).toBe(true);
    });
  });

  it('setMode switches for the rest of the run and is written to the audit log; dontAsk refuses what would ask; a bad mode is refused', async () => {
    const task = uniqueId('set-mode');
    fake.script(task, [reply(write('first.txt')), reply(shell('touch second.txt')), complete()]);
    const auditLog = path.join(await mkdtemp(path.join(tmpdir(), 'mode-audit-')), 'audit.log');
    await withAgentWorker({ ...bed.harness(), auditLog }, async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task, approvers: ['ann'] });
      await parked(handle);
      expect(await refusal(handle.executeUpdate(setModeUpdate, { args: [{ mode: 'yolo' as never, by: 'ann' }] }))).toMatch(/^Malformed mode switch: mode: .*\(modes: default, plan, acceptEdits, dontAsk\)$/);
      expect(await refusal(handle.executeUpdate(setModeUpdate, { args: [{ mode: 'dontAsk', by: 'mallory' }] }))).toMatch(/"mallory" may not change this run's mode/);
      const outcome = await handle.executeUpdate(setModeUpdate, { args: [{ mode: 'dontAsk', by: 'ann', reason: 'going home' }] });
      expect(outcome).toEqual({ applied: true, message: 'mode switched from default to dontAsk for the rest of the run' });
      // The call parked before the switch still waits for a person.
      expect((await parked(handle)).pendingApprovals.map((p) => p.callId)).toEqual(['toolu_0_0']);
      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve', approver: 'ann' });
      expect((await handle.result()).status).toBe('completed');
      expect(existsSync(path.join(workspace, 'first.txt'))).toBe(true);
      expect(existsSync(path.join(workspace, 'second.txt'))).toBe(false);
    });
    const [refused] = resultsIn(fake.requestsFor(task)[2]);
    expect(refused).toMatchObject({ is_error: true });
    expect(refused?.content).toContain('this run is in dontAsk mode');
    const lines = (await readFile(auditLog, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ kind: 'mode', tool: 'setMode', mode: 'dontAsk', previousMode: 'default', approver: 'ann', reason: 'going home' }));
  });

  it('a sub-agent works under the mode of the run that started it: dontAsk refuses its write instead of parking it', async () => {
    const task = uniqueId('mode-parent');
    const childTask = uniqueId('mode-child');
    fake.script(task, [reply(toolCall('delegate_task', { agent: 'general', task: childTask })), complete()]);
    fake.script(childTask, [reply(write('child.txt')), complete('child done')]);
    await withAgentWorker(bed.harness(), async ({ start, workspace }) => {
      const handle = await start({ agent: 'general', task, mode: 'dontAsk', subAgents: ['general'] });
      expect((await handle.result()).status).toBe('completed');
      expect(existsSync(path.join(workspace, 'child.txt'))).toBe(false);
    });
    const [refused] = resultsIn(fake.requestsFor(childTask)[1]);
    expect(refused?.content).toContain('this run is in dontAsk mode');
  });
});
