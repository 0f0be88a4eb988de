// Issue 36, must-have 2: Worker Versioning on the dev server. Two builds of one worker deployment
// serve one task queue. A run parked on build 1 is approved after build 2 became current and finishes
// on build 1 (PINNED); a new run starts on build 2; a run that continues as new moves to build 2 at
// its next link; `agentctl deploy status` shows both builds and the runs each holds. Each build's
// tools record the build id that ran them, and the server's versioning info of each execution is read.
import type { Client, WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approvalSignal, statusQuery } from '../../../src/contract/agent-run-api';
import { startRun } from '../../../src/client/start-run';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { ToolResult } from '../../../src/contract/tool-result';
import { defineTool } from '../../../src/runtime/tools/tool-definition';
import { createAgentWorker, type AgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';
import { useAgentTestbed } from '../../support/agent-testbed';
import { tempWorkspace, waitFor } from '../../support/agent-run-harness';
import { reply, toolCall } from '../../support/fake-anthropic';
import { newClient, temporalAddress, uniqueId } from '../../support/temporal';
import { agentctl } from '../../client/agentctl-process';
import { preferencesWorkflowId } from '../../../src/core/approvals/preference-messages';
import { complete, endPreferences, parked } from '../../workflows/approval-test-kit';

/** Which build ran each call, by key: the proof of where a run's tools ran. */
const ranOn = new Map<string, string>();

/** The tools of one build: `stamp` writes (so it asks for approval), `probe` only reads. */
function buildTools(buildId: string) {
  const record = (key: string) => {
    ranOn.set(key, buildId);
    return ToolResult.success(`${key} ran on ${buildId}`);
  };
  return [
    defineTool({ name: 'stamp', description: 'Records a key (a write: asks first).', scope: 'write', inputSchema: z.object({ key: z.string() }), execute: async ({ key }) => record(key) }),
    defineTool({ name: 'probe', description: 'Records a key (a read).', scope: 'read', inputSchema: z.object({ key: z.string() }), execute: async ({ key }) => record(key) }),
  ];
}

const stamper: AgentDefinitionInput = { name: 'stamper', description: 'Stamps keys.', modelTier: 'fast', tools: ['stamp', 'probe'], systemPrompt: 'You stamp.', maxIterations: 30 };

describe('Worker Versioning: two builds of one deployment', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;
  const deploymentName = uniqueId('agents-deploy');
  const taskQueue = uniqueId('versioned-q');
  let client: Client;
  const workers: { agentWorker: AgentWorker; running: Promise<void> }[] = [];

  beforeAll(async () => {
    client = await newClient();
  });
  afterAll(async () => {
    for (const { agentWorker, running } of workers.reverse()) {
      agentWorker.worker.shutdown();
      await running.catch(() => undefined);
      await agentWorker.close();
    }
    if (client) await endPreferences(client, 'walt', 'vera');
    await client?.connection.close();
  });

  async function startBuild(buildId: string): Promise<AgentWorker> {
    const agentWorker = await createAgentWorker({
      address: temporalAddress(),
      taskQueue,
      workspaceRoot: await tempWorkspace(),
      agents: [stamper],
      tools: buildTools(buildId),
      env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: bed.fake.baseUrl },
      workflowBundle: bed.harness().workflowBundle,
      auditLog: false,
      deployment: { name: deploymentName, buildId },
    });
    workers.push({ agentWorker, running: agentWorker.worker.run() });
    return agentWorker;
  }

  /** Makes a build current, as `temporal worker deployment set-current-version` does; the version exists once its worker has polled. */
  async function makeCurrent(buildId: string): Promise<void> {
    await waitFor(async () => {
      await client.workflowService.setWorkerDeploymentCurrentVersion({ namespace: 'default', deploymentName, buildId, identity: 'worker-versioning test' });
      return true;
    }, `build ${buildId} to become current`, 30_000);
  }

  /** The build and behaviour the server records for an execution (its latest run unless runId is given). */
  async function versioningOf(workflowId: string, runId?: string) {
    const described = await client.workflow.getHandle(workflowId, runId).describe();
    const info = described.raw.workflowExecutionInfo?.versioningInfo;
    return { buildId: info?.deploymentVersion?.buildId ?? undefined, behavior: info?.behavior ?? undefined };
  }

  const start = (task: string, extra: Record<string, unknown> = {}) => startRun(client, { agent: 'stamper', task, user: 'vera', ...extra }, { taskQueue, workflowId: uniqueId('versioned-run') });
  const approve = (handle: WorkflowHandle, callId: string) => handle.signal(approvalSignal, { callId, decision: 'approve', approver: 'vera' });

  it('keeps a parked run on build 1 after build 2 became current, starts new runs on build 2, and moves a run to build 2 at its next link', async () => {
    const PINNED = temporal.api.enums.v1.VersioningBehavior.VERSIONING_BEHAVIOR_PINNED;
    const first = await startBuild('build-1');
    expect(first.describe()).toContain(`AGENT_DEPLOYMENT_NAME: ${deploymentName} (build build-1; agentRun PINNED to the build that started it)`);
    await makeCurrent('build-1');

    const parkedTask = uniqueId('parked');
    fake.script(parkedTask, [reply(toolCall('stamp', { key: 'parked' })), complete()]);
    const parkedRun = await start(parkedTask, { user: 'walt' });
    await parked(parkedRun);
    // A run that continues as new: it parks on build 1, then crosses its (lowered) history budget.
    const linkedTask = uniqueId('linked');
    const probes = Array.from({ length: 10 }, (_, i) => reply(toolCall('probe', { key: `link-${i}` })));
    fake.script(linkedTask, [reply(toolCall('stamp', { key: 'linked-before' })), ...probes, complete()]);
    const linkedRun = await start(linkedTask, { historyBudget: { maxEvents: 50 } });
    await parked(linkedRun);
    expect(await versioningOf(parkedRun.workflowId)).toEqual({ buildId: 'build-1', behavior: PINNED });

    await startBuild('build-2');
    await makeCurrent('build-2');

    const newTask = uniqueId('new');
    fake.script(newTask, [reply(toolCall('stamp', { key: 'new' })), complete()]);
    const newRun = await start(newTask);
    await parked(newRun);

    // Both builds hold one parked run (and build 1 the linked one): what `deploy status` reports.
    const status = await waitFor(async () => {
      const result = await agentctl(['deploy', 'status', '--deployment', deploymentName, '--json'], { TEMPORAL_ADDRESS: temporalAddress() });
      if (result.code !== 0) throw new Error(result.stdout + result.stderr);
      const parsed = JSON.parse(result.stdout) as { builds: { buildId: string; state: string; runs: number }[] };
      const runsOf = (id: string) => parsed.builds.find((b) => b.buildId === id)?.runs;
      return runsOf('build-1') === 2 && runsOf('build-2') === 1 ? parsed : undefined;
    }, 'deploy status to count the runs of each build', 30_000);
    expect(status.builds).toEqual(expect.arrayContaining([
      expect.objectContaining({ buildId: 'build-1', state: 'draining', runs: 2 }),
      expect.objectContaining({ buildId: 'build-2', state: 'current', runs: 1 }),
    ]));
    const text = await agentctl(['deploy', 'status', '--deployment', deploymentName], { TEMPORAL_ADDRESS: temporalAddress() });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/build-2\s+current\s+1\b/);
    expect(text.stdout).toMatch(/build-1\s+draining\s+2\b/);

    // "Always" starts walt's preferences workflow: on the build current by then, pinned there as runs are.
    await parkedRun.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve_always', approver: 'walt' });
    expect((await parkedRun.result()).status).toBe('completed');
    await waitFor(async () => ((await versioningOf(preferencesWorkflowId('walt')).catch(() => undefined))?.buildId === 'build-2' ? true : undefined), "walt's preferences workflow to run on build 2", 15_000);
    expect(await versioningOf(preferencesWorkflowId('walt'))).toEqual({ buildId: 'build-2', behavior: PINNED });
    expect(ranOn.get('parked')).toBe('build-1');
    expect(await versioningOf(parkedRun.workflowId)).toEqual({ buildId: 'build-1', behavior: PINNED });

    await approve(newRun, 'toolu_0_0');
    expect((await newRun.result()).status).toBe('completed');
    expect(ranOn.get('new')).toBe('build-2');
    expect(await versioningOf(newRun.workflowId)).toEqual({ buildId: 'build-2', behavior: PINNED });

    // The linked run: approved on build 1 (its history is past the lowered budget by then, so it hands
    // over right after the approved call), then continued as new; its next link runs on build 2.
    await approve(linkedRun, 'toolu_0_0');
    expect((await linkedRun.result()).status).toBe('completed');
    const links = (await linkedRun.query(statusQuery)).continueAsNewLinks;
    expect(links).toBeGreaterThanOrEqual(1);
    expect(ranOn.get('linked-before')).toBe('build-1');
    expect(ranOn.get('link-9')).toBe('build-2');
    expect(await versioningOf(linkedRun.workflowId)).toEqual({ buildId: 'build-2', behavior: PINNED });
    expect(await versioningOf(linkedRun.workflowId, linkedRun.firstExecutionRunId)).toEqual({ buildId: 'build-1', behavior: PINNED });
  });
});
