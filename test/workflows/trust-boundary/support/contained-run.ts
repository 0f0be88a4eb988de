// What the end-to-end tests of issue 30 share: a run driven to its end with every parked call
// decided by a person, the results the model got, a git repository, and a probe for the canary.
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { approvalSignal, statusQuery } from '../../../../src/contract/agent-run-api';
import type { ToolApproval } from '../../../../src/contract/approval-rules';
import type { PermissionMode } from '../../../../src/contract/permission-mode';
import { analyzeShellCommand } from '../../../../src/runtime/shell/analyze-shell';
import { shellTool } from '../../../../src/runtime/tools/builtin/shell';
import { defineTool } from '../../../../src/runtime/tools/tool-definition';
import { toolResultsIn, type RunHarness } from '../../../support/agent-run-harness';
import type { FakeAnthropic } from '../../../support/fake-anthropic';

/** A bash line that says it ran, then tries the canary: REACHED or BLOCKED. */
export const probe = (port: number) => `echo HIDDEN-RAN; : < /dev/tcp/127.0.0.1/${port} && echo REACHED || echo BLOCKED`;

/** The real shell tool, with an analyzer that reads every call as `seen`: a stand-in for any analyzer miss. */
export function blindShell(seen: string) {
  return defineTool({ ...shellTool, name: 'blind_shell', analyze: (_input, context) => analyzeShellCommand(seen, { workspaceRoot: context.workspaceRoot }) });
}

export interface Outcome {
  /** The calls that parked for a person, in the order they parked. */
  asked: string[];
  /** The reasons they parked with, by call id. */
  reasons: Record<string, string>;
  /** Every tool result the model got, in order. */
  results: { tool_use_id: string; content: string; is_error?: boolean }[];
}

export interface RunToEnd {
  task: string;
  agent?: string;
  toolApproval?: ToolApproval;
  mode?: PermissionMode;
  network?: boolean;
  user?: string;
  /** Calls a person approves; every other call that parks is rejected. */
  approve?: string[];
  /** Calls a person approves with "always". */
  approveAlways?: string[];
}

/**
 * Runs `task` to its end (with the network, unless `network: false`). Every call that parks is
 * decided by a person: rejected unless `approve` or `approveAlways` names it, so what runs unseen is
 * only what the rules and the mode let through.
 */
export async function runToEnd(harness: RunHarness, fake: Pick<FakeAnthropic, 'requestsFor'>, input: RunToEnd): Promise<Outcome> {
  const handle: WorkflowHandle = await harness.start({
    agent: input.agent ?? 'general',
    task: input.task,
    toolApproval: input.toolApproval,
    mode: input.mode,
    network: input.network ?? true,
    ...(input.user ? { user: input.user } : {}),
  });
  const asked: string[] = [];
  const reasons: Record<string, string> = {};
  const deadline = Date.now() + 90_000;
  for (;;) {
    const description = await handle.describe();
    if (description.status.name !== 'RUNNING') break;
    const status = await handle.query(statusQuery).catch(() => undefined);
    for (const pending of status?.pendingApprovals ?? []) {
      if (asked.includes(pending.callId)) continue;
      asked.push(pending.callId);
      reasons[pending.callId] = pending.reason ?? '';
      const decision = input.approveAlways?.includes(pending.callId) ? 'approve_always' : input.approve?.includes(pending.callId) ? 'approve' : 'reject';
      await handle.signal(approvalSignal, { callId: pending.callId, decision, approver: input.user ?? 'ann' });
    }
    if (Date.now() > deadline) throw new Error(`run ${input.task} did not end within 90 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await handle.result();
  const results = fake.requestsFor(input.task).slice(1).flatMap((request) => toolResultsIn(request));
  return { asked, reasons, results };
}

export const outputOf = (outcome: Outcome, callId: string) => outcome.results.find((r) => r.tool_use_id === callId)?.content ?? '';

/** A git repository with one committed file, as the host (root) makes it. */
export async function gitRepo(workspace: string): Promise<void> {
  execFileSync('git', ['init', '-q', workspace]);
  await writeFile(path.join(workspace, 'README.md'), 'hello\n');
  execFileSync('git', ['-C', workspace, 'add', 'README.md']);
  execFileSync('git', ['-C', workspace, '-c', 'user.name=host', '-c', 'user.email=host@example.com', 'commit', '-qm', 'start']);
}
