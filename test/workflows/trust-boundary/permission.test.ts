// Who let a call run, and whether it may write, as the tool itself sees it (`ToolContext.permission`),
// through the public run input on a real worker and server: allow rules with and without "writes",
// a person's approval by signal and by update, and "always" choices for commands that write or only read.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { preferencesWorkflowId } from '../../../src/core/approvals/preference-messages';
import { readPreferences } from '../../../src/runtime/approvals/read-preferences';
import { analyzeShellCommand } from '../../../src/runtime/shell/analyze-shell';
import { defineTool } from '../../../src/runtime/tools/tool-definition';
import { ToolResult } from '../../../src/contract/tool-result';
import { approvalSignal, decideApprovalUpdate } from '../../../src/contract/agent-run-api';
import type { AgentRunInput } from '../../../src/contract/run-input';
import { toolResultsIn, waitFor, waitForApprovals, withAgentWorker, type RunHarness } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

/** Says what the worker handed it: the permission in its context, as JSON ("null" when there is none). */
const report = (context: { permission?: unknown }) => ToolResult.success(JSON.stringify(context.permission ?? null));

/** A command tool like `shell` (parsed, judged command by command) that runs nothing and reports its permission. */
const probe = defineTool({
  name: 'probe',
  description: 'Reports the permission its call ran with.',
  scope: 'execute',
  subjectArgument: 'command',
  inputSchema: z.object({ command: z.string() }),
  analyze: (input, context) => analyzeShellCommand(input.command, { workspaceRoot: context.workspaceRoot }),
  execute: async (_input, context) => report(context),
});
/** A read tool (quick and idempotent, so it runs as a local activity) that reports its permission. */
const peek = defineTool({
  name: 'peek',
  description: 'Reports the permission its call ran with.',
  scope: 'read',
  inputSchema: z.object({}),
  execute: async (_input, context) => report(context),
});

/** A write tool that is quick and safe to repeat, so a call of it runs as a local activity, inside the workflow task. */
const stamp = defineTool({
  name: 'stamp',
  description: 'Reports the permission its call ran with.',
  scope: 'write',
  idempotent: true,
  quick: true,
  inputSchema: z.object({}),
  execute: async (_input, context) => report(context),
});

const agent = (name: string, extra: Partial<AgentDefinitionInput> = {}): AgentDefinitionInput => ({
  name,
  description: 'Reports permissions.',
  modelTier: 'fast',
  tools: ['probe', 'peek', 'stamp'],
  systemPrompt: 'You probe.',
  maxIterations: 5,
  ...extra,
});
// An agent defined in code whose own allow rule grants writes.
const writer = agent('permission-writer', { approval: { alwaysApproved: [{ tool: 'probe', argument: 'command', argumentsMatch: '^make$', writes: true }] } });

const run = (command: string) => toolCall('probe', { command });
const done = reply(toolCall('complete_task', { summary: 'done', status: 'success' }));
const READ_ONLY = { by: 'rule', writes: false, network: false };
const RULE_WRITES = { by: 'rule', writes: true, network: false };
const PERSON = { by: 'person', writes: true, network: true };
type RunHandle = Awaited<ReturnType<RunHarness['start']>>;

describe('ToolContext.permission, from the decision to the tool', () => {
  const bed = useAgentTestbed({ agents: [agent('prober'), writer], tools: [probe, peek, stamp] });
  const fake = bed.fake;

  /** Runs one turn of calls to completion and returns what each call reported, in order. */
  async function permissionsOf(harness: RunHarness, input: AgentRunInput, decide?: (handle: RunHandle) => Promise<void>): Promise<unknown[]> {
    const handle = await harness.start(input);
    await decide?.(handle);
    expect((await handle.result()).status).toBe('completed');
    return toolResultsIn(fake.requestsFor(input.task)[1]).map((r) => JSON.parse(r.content) as unknown);
  }

  it('runs a call an allow rule lets through read-only, unless the rule says "writes": true (run input or agent definition)', async () => {
    const task = uniqueId('rules');
    const agentTask = uniqueId('agent-rule');
    fake.script(task, [reply(run('ls'), run('make'), toolCall('peek', {})), done]);
    fake.script(agentTask, [reply(run('make')), done]);
    const toolApproval = {
      alwaysApproved: [
        { tool: 'probe', argument: 'command', argumentsMatch: '^ls$' },
        { tool: 'probe', argument: 'command', argumentsMatch: '^make$', writes: true },
      ],
    };
    await withAgentWorker(bed.harness(), async (harness) => {
      expect(await permissionsOf(harness, { agent: 'prober', task, toolApproval })).toEqual([READ_ONLY, RULE_WRITES, READ_ONLY]);
      expect(await permissionsOf(harness, { agent: 'permission-writer', task: agentTask })).toEqual([RULE_WRITES]);
    });
  });

  it('refuses a "writes" that is not a boolean in the run input, naming the rule: in startRun and in the workflow itself', async () => {
    const input = { agent: 'prober', task: uniqueId('bad-writes'), toolApproval: { alwaysApproved: [{ tool: 'probe', writes: 'yes' as never }] } };
    const problem = 'toolApproval.alwaysApproved.0: writes: must be true or false';
    await withAgentWorker(bed.harness(), async (harness) => {
      await expect(harness.start(input)).rejects.toThrow(problem);
      // A client that skips startRun's check: the run fails at once with the same words.
      const handle = await harness.client.workflow.start('agentRun', { taskQueue: harness.taskQueue, workflowId: uniqueId('bad-writes'), args: [input] });
      const error = await handle.result().catch((e: unknown) => e as { cause?: Error });
      expect(String(error.cause?.message)).toContain(problem);
    });
  });

  it('runs a call a person approved as theirs, with writes: by the approval signal and by the decideApproval update', async () => {
    const task = uniqueId('person');
    fake.script(task, [reply(run('echo a'), run('echo b'), toolCall('stamp', {})), done]);
    await withAgentWorker(bed.harness(), async (harness) => {
      let history: temporal.api.history.v1.IHistory | undefined;
      const permissions = await permissionsOf(harness, { agent: 'prober', task }, async (handle) => {
        await waitForApprovals(handle, 3);
        await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve', approver: 'ana' });
        const outcome = await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_1', decision: 'approve', approver: 'ana' }] });
        expect(outcome.applied).toBe(true);
        await handle.signal(approvalSignal, { callId: 'toolu_0_2', decision: 'approve', approver: 'ana' });
        await handle.result();
        history = await handle.fetchHistory();
      });
      expect(permissions).toEqual([PERSON, PERSON, PERSON]);
      // `stamp` ran as a local activity (a marker, not a scheduled activity): the permission reaches those too.
      const events = history?.events ?? [];
      expect(events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool')).toHaveLength(2);
      expect(events.some((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity')).toBe(true);
    });
  });

  it('runs calls a remembered "always" allows with writes only when it was given for a command that writes, and with the network when it was given in a run that had it', async () => {
    const person = uniqueId('pia');
    const first = uniqueId('always-first');
    const later = uniqueId('always-later');
    fake.script(first, [reply(run('echo hi > out.txt'), run('ls')), done]);
    fake.script(later, [reply(run('echo hi > out.txt'), run('ls')), done]);
    await withAgentWorker(bed.harness(), async (harness) => {
      try {
        const decided = await permissionsOf(harness, { agent: 'prober', task: first, user: person, network: true }, async (handle) => {
          await waitForApprovals(handle, 2);
          await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve_always', approver: person });
          await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_1', decision: 'approve_always', approver: person }] });
        });
        expect(decided).toEqual([PERSON, PERSON]);
        // Both choices are stored, with the flag, before the next run reads them.
        const stored = await waitFor(async () => {
          const rules = await readPreferences(harness.client, person);
          return rules.length === 2 ? rules : undefined;
        }, 'both choices in the store');
        expect(stored.map((r) => [r.match.kind === 'command' ? r.match.pattern.pattern : r.match.kind, r.writes, r.network])).toEqual([
          ['echo hi', true, true],
          ['ls', false, true],
        ]);
        // The next run asks no one: each call runs as its remembered choice allows.
        expect(await permissionsOf(harness, { agent: 'prober', task: later, user: person })).toEqual([
          { by: 'rule', writes: true, network: true },
          { by: 'rule', writes: false, network: true },
        ]);
      } finally {
        await endPreferences(harness.client, person);
      }
    });
  });
});

async function endPreferences(client: Client, user: string): Promise<void> {
  await client.workflow.getHandle(preferencesWorkflowId(user)).terminate('test cleanup').catch(() => undefined);
}
