// The approval verbs of agentctl, run as the real binary against the real server, the interactive
// prompt through injected streams, and parity with the plain `temporal` CLI.
import { execFile } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import type { WorkflowHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { useAgentTestbed } from '../support/agent-testbed';
import { promptForApprovals, promptForReply } from '../../src/client/approval-prompt';
import type { PendingRun } from '../../src/cli/commands/pending';
import { preferencesWorkflowId } from '../../src/core/approvals/preference-messages';
import type { agentRun } from '../../src/workflows/agent-run';
import { statusQuery } from '../../src/contract/agent-run-api';
import type { RunStatus } from '../../src/contract/run-status';
import type { ToolResultBlock } from '../../src/contract/messages';
import { ensureTemporalCli } from '../../scripts/install-temporal.js';
import { waitFor, withAgentWorker } from '../support/agent-run-harness';
import { reply, toolCall, type FakeRequest } from '../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../support/temporal';
import { agentctl as runAgentctl } from './agentctl-process';

const run = promisify(execFile);

/** Runs the `temporal` CLI without blocking this process, whose worker must keep polling meanwhile. */
async function temporal(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(ensureTemporalCli(), [...args, '--address', temporalAddress()], { timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? String(error) };
  }
}

/** The real binary; USER is fixed so the default approver is known. */
const agentctl = (...args: string[]) => runAgentctl(args, { TEMPORAL_ADDRESS: temporalAddress(), USER: 'cli-tester' });
/** Spawning agentctl takes seconds on a busy machine: waits that call it get more time. */
const CLI_WAIT_MS = 60_000;

type RunHandle = WorkflowHandle<typeof agentRun>;
const write = (file: string) => toolCall('write_file', { path: file, content: 'x' });
const complete = () => reply(toolCall('complete_task', { summary: 'done', status: 'success' }));

function parked(handle: RunHandle, phase: 'waiting_approval' | 'waiting_input' = 'waiting_approval', count = 1): Promise<RunStatus> {
  return waitFor(async () => {
    const status = await handle.query(statusQuery);
    const enough = phase === 'waiting_input' || status.pendingApprovals.length >= count;
    return status.phase === phase && enough ? status : undefined;
  }, `${handle.workflowId} to reach ${phase}`);
}

function resultsIn(request: FakeRequest | undefined): ToolResultBlock[] {
  return request?.body.messages.at(-1)?.content as unknown as ToolResultBlock[];
}

/** A stream pair for the prompt: what the "person" types, and everything the prompt printed. */
function terminal(...lines: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
  input.write(lines.map((l) => `${l}\n`).join(''));
  return { io: { input, output, approver: undefined as string | undefined }, printed: () => printed, end: () => input.end() };
}

describe('agentctl approval verbs', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;
  const harness = bed.harness;

  it('approve without a callId decides the only pending call, as the login user, through the update', async () => {
    const task = uniqueId('cli-approve');
    fake.script(task, [reply(write('a.txt')), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      await parked(handle);
      const approved = await agentctl('approve', handle.workflowId);
      expect(approved).toMatchObject({ code: 0, stdout: `${handle.workflowId}: approve applied to toolu_0_0\n` });
      expect((await handle.result()).status).toBe('completed');
      expect((await handle.query(statusQuery)).decisions).toEqual([
        expect.objectContaining({ callId: 'toolu_0_0', decision: 'approve', approver: 'cli-tester', via: 'update' }),
      ]);
    });
  });

  it('refuses to guess between several pending calls and lists them; a named callId and --json then work', async () => {
    const task = uniqueId('cli-several');
    fake.script(task, [reply(write('one.txt'), toolCall('shell', { command: 'echo two' })), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      await parked(handle, 'waiting_approval', 2);
      const ambiguous = await agentctl('approve', handle.workflowId);
      expect(ambiguous.code).toBe(1);
      expect(ambiguous.stderr).toContain(`Run ${handle.workflowId} has 2 calls waiting for approval; name one:`);
      expect(ambiguous.stderr).toContain('toolu_0_0  write_file  {"path":"one.txt","content":"x"}');
      expect(ambiguous.stderr).toContain('toolu_0_1  shell  {"command":"echo two"}');

      const approved = await agentctl('approve', handle.workflowId, 'toolu_0_0', '--reason', 'looks fine', '--approver', 'dana', '--json');
      expect(approved.code).toBe(0);
      expect(JSON.parse(approved.stdout)).toEqual({
        workflowId: handle.workflowId,
        callId: 'toolu_0_0',
        decision: 'approve',
        approver: 'dana',
        reason: 'looks fine',
        via: 'update',
        applied: true,
        message: 'approve applied to toolu_0_0',
      });
      // An unknown callId is refused by the run, with its reason.
      const unknown = await agentctl('reject', handle.workflowId, 'toolu_9_9');
      expect(unknown).toMatchObject({ code: 1, stderr: 'no pending approval with callId toolu_9_9; decision ignored\n' });
      // With one call left, reject needs no callId.
      expect((await agentctl('reject', handle.workflowId, '--reason', 'no shell today')).code).toBe(0);
      expect((await handle.result()).status).toBe('completed');
    });
    const results = resultsIn(fake.requestsFor(task)[1]);
    expect(results[1]).toMatchObject({ tool_use_id: 'toolu_0_1', is_error: true });
    expect(results[1]?.content).toContain('rejected: no shell today');
  });

  it('reject --never remembers the choice; preferences lists it and --revoke forgets it', async () => {
    const task = uniqueId('cli-never');
    const person = uniqueId('erin');
    fake.script(task, [reply(toolCall('shell', { command: 'echo hi' })), complete()]);
    await withAgentWorker(harness(), async ({ start, client }) => {
      try {
        const handle = await start({ agent: 'general', task, user: person });
        await parked(handle);
        expect((await agentctl('reject', handle.workflowId, '--never', '--approver', person)).code).toBe(0);
        expect((await handle.result()).status).toBe('completed');

        const listed = await waitFor(async () => {
          const out = await agentctl('preferences', person, '--json');
          const parsed = JSON.parse(out.stdout) as { entries: { tool: string; preference: string }[] };
          return parsed.entries.length > 0 ? parsed : undefined;
        }, 'the saved preference', CLI_WAIT_MS);
        expect(listed).toEqual({ user: person, entries: [expect.objectContaining({ tool: 'shell', preference: 'never', by: person, scope: 'shell: echo hi' })] });
        expect((await agentctl('preferences', person)).stdout).toMatch(/#1\s+never\s+shell: echo hi/);

        const revoked = await agentctl('preferences', person, '--revoke', 'shell');
        expect(revoked).toMatchObject({ code: 0, stdout: `Revoked "never" for shell: echo hi (${person}). Runs that start from now on ask again.\n` });
        await waitFor(async () => ((await agentctl('preferences', person, '--json')).stdout.includes('"entries": []') ? true : undefined), 'the revocation', CLI_WAIT_MS);
        const again = await agentctl('preferences', person, '--revoke', 'shell');
        expect(again).toMatchObject({ code: 1, stderr: `${person} has no remembered choice matching "shell" (remembered: none).\n` });
      } finally {
        await client.workflow.getHandle(preferencesWorkflowId(person)).terminate('test cleanup').catch(() => undefined);
      }
    });
  });

  it('pending lists parked runs with their calls and questions, as text and --json', async () => {
    const approvalTask = uniqueId('cli-pending-approval');
    const questionTask = uniqueId('cli-pending-question');
    fake.script(approvalTask, [reply(write('p.txt')), complete()]);
    fake.script(questionTask, [reply(toolCall('need_more_information', { question: 'Which branch?' })), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const waitingApproval = await start({ agent: 'general', task: approvalTask });
      const waitingInput = await start({ agent: 'general', task: questionTask });
      await parked(waitingApproval);
      await parked(waitingInput, 'waiting_input');
      // Visibility is eventually consistent: the search attribute may take a moment to be indexed.
      const runs = await waitFor(async () => {
        const listed = JSON.parse((await agentctl('pending', '--json')).stdout) as PendingRun[];
        const mine = listed.filter((r) => [waitingApproval.workflowId, waitingInput.workflowId].includes(r.workflowId));
        return mine.length === 2 ? mine : undefined;
      }, 'both runs in `agentctl pending`', CLI_WAIT_MS);
      const byId = Object.fromEntries(runs.map((r) => [r.workflowId, r]));
      expect(byId[waitingApproval.workflowId]).toMatchObject({
        phase: 'waiting_approval',
        status: { agent: 'general', task: approvalTask, pendingApprovals: [expect.objectContaining({ callId: 'toolu_0_0', tool: 'write_file' })] },
      });
      expect(byId[waitingInput.workflowId]).toMatchObject({ phase: 'waiting_input', status: { pendingQuestion: { question: 'Which branch?' } } });

      const human = (await agentctl('pending')).stdout;
      expect(human).toContain(`${waitingApproval.workflowId}  waiting_approval  general`);
      expect(human).toContain('toolu_0_0  write_file  {"path":"p.txt","content":"x"}');
      expect(human).toContain('question: Which branch?');

      await agentctl('approve', waitingApproval.workflowId);
      const replied = await agentctl('reply', waitingInput.workflowId, 'main,', 'please');
      expect(replied).toMatchObject({ code: 0, stdout: `${waitingInput.workflowId}: reply delivered to the agent\n` });
      await Promise.all([waitingApproval.result(), waitingInput.result()]);
      const noQuestion = await agentctl('reply', waitingInput.workflowId, 'too late');
      expect(noQuestion.code).toBe(1);
    });
    expect(resultsIn(fake.requestsFor(questionTask)[1])[0]?.content).toBe('The user replied: main, please');
  });

  it('the interactive prompt shows the call and its context, and "always" approves it and remembers', async () => {
    const task = uniqueId('cli-prompt');
    const person = uniqueId('fay');
    fake.script(task, [
      reply({ type: 'text', text: 'Saving the report now.' }, write('report.md')),
      reply(toolCall('need_more_information', { question: 'Email it too?', context: 'The report is saved.' })),
      complete(),
    ]);
    await withAgentWorker(harness(), async ({ start, client }) => {
      try {
        const handle = await start({ agent: 'general', task, user: person });
        const status = await parked(handle);
        const person1 = terminal('perhaps', 'always');
        person1.io.approver = person;
        const made = await promptForApprovals(handle, status, person1.io);
        expect(made).toEqual([{ callId: 'toolu_0_0', decision: 'approve_always', applied: true, message: 'approve_always applied to toolu_0_0' }]);
        const shown = person1.printed();
        expect(shown).toContain('⚠️ Tool Approval Required');
        expect(shown).toContain('Tool: write_file');
        expect(shown).toContain(`Arguments:\n  {\n    "path": "report.md",\n    "content": "x"\n  }`);
        expect(shown).toContain('Context:\n  The agent said: Saving the report now.\n  Policy: write tools: approve');
        expect(shown).toContain('Approve? [y/n/always/never]: Please answer y, n, always or never.\nApprove? [y/n/always/never]: ');

        const asked = await parked(handle, 'waiting_input');
        const person2 = terminal('', 'no thanks');
        const answered = await promptForReply(handle, asked.pendingQuestion!, person2.io);
        expect(answered).toEqual({ applied: true, message: 'reply delivered to the agent' });
        expect(person2.printed()).toContain('Question: Email it too?\nContext: The report is saved.\nYour reply: Your reply: ');
        expect((await handle.result()).status).toBe('completed');
        expect((await handle.query(statusQuery)).decisions).toEqual([expect.objectContaining({ decision: 'approve_always', approver: person, via: 'update' })]);
      } finally {
        await client.workflow.getHandle(preferencesWorkflowId(person)).terminate('test cleanup').catch(() => undefined);
      }
    });
    expect(resultsIn(fake.requestsFor(task)[2])[0]?.content).toBe('The user replied: no thanks');
  });

  it('the prompt leaves the call parked when the input ends without an answer', async () => {
    const task = uniqueId('cli-prompt-eof');
    fake.script(task, [reply(write('eof.txt')), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      const status = await parked(handle);
      const person = terminal();
      person.end();
      expect(await promptForApprovals(handle, status, person.io)).toEqual([]);
      expect((await handle.query(statusQuery)).phase).toBe('waiting_approval');
      await agentctl('approve', handle.workflowId);
      expect((await handle.result()).status).toBe('completed');
    });
  });

  it('gives the same results from the plain temporal CLI: a signal approves, and the status query shows the same phase', async () => {
    const task = uniqueId('cli-parity');
    fake.script(task, [reply(write('parity.txt')), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      const status = await parked(handle);
      const queried = await temporal('workflow', 'query', '--workflow-id', handle.workflowId, '--type', 'status', '--output', 'json');
      expect(queried.code).toBe(0);
      const viaCli = (JSON.parse(queried.stdout) as { queryResult: RunStatus[] }).queryResult[0]!;
      expect(viaCli.phase).toBe('waiting_approval');
      expect(viaCli.phase).toBe(status.phase);
      expect(viaCli.pendingApprovals).toEqual(status.pendingApprovals);

      const payload = JSON.stringify({ callId: 'toolu_0_0', decision: 'approve', approver: 'ops' });
      const signalled = await temporal('workflow', 'signal', '--workflow-id', handle.workflowId, '--name', 'approval', '--input', payload);
      expect(signalled.code).toBe(0);
      expect((await handle.result()).status).toBe('completed');
      const after = await handle.query(statusQuery);
      expect(after.decisions).toEqual([expect.objectContaining({ callId: 'toolu_0_0', decision: 'approve', approver: 'ops', via: 'signal' })]);
      const final = await temporal('workflow', 'query', '--workflow-id', handle.workflowId, '--type', 'status', '--output', 'json');
      expect((JSON.parse(final.stdout) as { queryResult: RunStatus[] }).queryResult[0]?.phase).toBe('completed');
    });
  });

  it('the update through the temporal CLI reports the outcome, and refuses an unknown callId', async () => {
    const task = uniqueId('cli-parity-update');
    fake.script(task, [reply(write('u.txt')), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      await parked(handle);
      const update = (payload: object) =>
        temporal('workflow', 'update', 'execute', '--workflow-id', handle.workflowId, '--name', 'decideApproval', '--input', JSON.stringify(payload), '--output', 'json');
      const refused = await update({ callId: 'toolu_x', decision: 'approve' });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('no pending approval with callId toolu_x');
      const applied = await update({ callId: 'toolu_0_0', decision: 'approve' });
      expect(applied.code).toBe(0);
      expect(applied.stdout).toContain('approve applied to toolu_0_0');
      expect((await handle.result()).status).toBe('completed');
    });
  });
});
