// Captures the event histories of one release's workflows as replay fixtures.
//
//   npx tsx scripts/capture-histories.ts test/fixtures/histories/<release> [scenario ...]
//
// Each scenario runs against a private dev server with the scripted fake Messages API, and its
// history is written as `<scenario>.json` (the JSON form the Temporal CLI and Web UI export). The
// replay test (test/workflows/replay.test.ts) replays every fixture against the current workflow code,
// so a change that alters the commands of an already-running workflow fails CI unless it is patched.
// Run it at each release and commit the new folder; old folders stay.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { startRun } from '../src/client/start-run';
import { changePreferenceSignal, preferencesWorkflowId, PREFERENCES_WORKFLOW_TYPE } from '../src/approvals/preference-messages';
import { createAgentWorker } from '../src/worker-setup/create-agent-worker';
import { approvalSignal, statusQuery } from '../src/workflows/definitions';
import { fail, reply, startFakeAnthropic, toolCall } from '../test/support/fake-anthropic';
import { callId, stepScript, stepTool } from '../test/support/step-script';
import { startDevServer } from './temporal-dev-server';

type Scenario = (ctx: { client: Client; taskQueue: string; id: string }) => Promise<WorkflowHandle>;

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const phase = (handle: WorkflowHandle, wanted: string) =>
  until(async () => ((await handle.query(statusQuery)).phase === wanted ? true : undefined), `${handle.workflowId} to reach ${wanted}`);

const complete = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));

/** The scripts the fake model serves, one per scenario task. */
function scripts(fake: Awaited<ReturnType<typeof startFakeAnthropic>>): void {
  fake.script('fixture: completed', [reply(toolCall('list_files', { path: '.' })), complete('listed')]);
  fake.script('fixture: approved', [reply(toolCall('write_file', { path: 'a.txt', content: 'hi' })), complete('written')]);
  fake.script('fixture: parked approval', [reply(toolCall('write_file', { path: 'b.txt', content: 'hi' }))]);
  // Twelve 503s: as many attempts as the first release's model retry policy allowed, so its run fails.
  fake.script('fixture: outage', [reply(toolCall('list_files', { path: '.' })), ...Array.from({ length: 12 }, () => fail(503, { retryAfterMs: 20 })), complete('unreachable')]);
  fake.script('fixture: parked question', [reply(toolCall('need_more_information', { question: 'Which file?' }))]);
  fake.script(
    'fixture: continued',
    stepScript((step) =>
      step < 12 ? reply(toolCall('step', { n: step }, callId(step))) : reply(toolCall('complete_task', { summary: 'steps done', status: 'success' }, callId(step))),
    ),
  );
}

const scenarios: Record<string, Scenario> = {
  async completed({ client, taskQueue, id }) {
    const handle = await startRun(client, { agent: 'fixture', task: 'fixture: completed' }, { taskQueue, workflowId: id });
    await handle.result();
    return handle;
  },
  async 'approved-completed'({ client, taskQueue, id }) {
    const handle = await startRun(client, { agent: 'fixture', task: 'fixture: approved', user: 'fixture-user' }, { taskQueue, workflowId: id });
    await phase(handle, 'waiting_approval');
    const status = await handle.query(statusQuery);
    await handle.signal(approvalSignal, { callId: status.pendingApprovals[0]!.callId, decision: 'approve', approver: 'ana' });
    await handle.result();
    return handle;
  },
  async 'failed-model-outage'({ client, taskQueue, id }) {
    const handle = await startRun(client, { agent: 'fixture', task: 'fixture: outage' }, { taskQueue, workflowId: id });
    await handle.result().catch(() => undefined);
    return handle;
  },
  async 'parked-approval'({ client, taskQueue, id }) {
    const handle = await startRun(client, { agent: 'fixture', task: 'fixture: parked approval' }, { taskQueue, workflowId: id });
    await phase(handle, 'waiting_approval');
    return handle;
  },
  async 'parked-question'({ client, taskQueue, id }) {
    const handle = await startRun(client, { agent: 'fixture', task: 'fixture: parked question' }, { taskQueue, workflowId: id });
    await phase(handle, 'waiting_input');
    return handle;
  },
  async 'continued-as-new'({ client, taskQueue, id }) {
    const handle = await startRun(client, { agent: 'fixture', task: 'fixture: continued', historyBudget: { maxEvents: 50 } }, { taskQueue, workflowId: id });
    await handle.result();
    // The first link: it ends with the continue-as-new that carries the checkpoint.
    return client.workflow.getHandle(id, handle.firstExecutionRunId);
  },
  async 'continued-while-parked'({ client, taskQueue, id }) {
    // Parks on an approval, then ignored signals grow the history until the run hands over to a new
    // link while it waits: the checkpoint carries a turn in progress with a pending approval.
    const handle = await startRun(client, { agent: 'fixture', task: 'fixture: parked approval', historyBudget: { maxEvents: 50 } }, { taskQueue, workflowId: id });
    await phase(handle, 'waiting_approval');
    for (let i = 0; (await handle.describe()).runId === handle.firstExecutionRunId; i += 1) {
      await handle.signal(approvalSignal, { callId: `no-such-call-${i}`, decision: 'approve' });
    }
    await phase(handle, 'waiting_approval');
    return client.workflow.getHandle(id, handle.firstExecutionRunId);
  },
  async preferences({ client, taskQueue }) {
    const workflowId = preferencesWorkflowId(`fixture-${Date.now()}`);
    const send = (tool: string, preference: 'always' | 'never' | 'revoke') =>
      client.workflow.signalWithStart(PREFERENCES_WORKFLOW_TYPE, { workflowId, taskQueue, args: [], signal: changePreferenceSignal, signalArgs: [{ tool, preference, by: 'ana' }] });
    await send('write_file', 'always');
    await send('shell', 'never');
    await send('write_file', 'revoke');
    const handle = client.workflow.getHandle(workflowId);
    await until(async () => {
      const events = (await handle.fetchHistory()).events ?? [];
      const signals = events.filter((e) => e.workflowExecutionSignaledEventAttributes).length;
      // Done once a workflow task completed after the last signal (a memo upsert may follow it).
      const lastIndex = (has: (e: (typeof events)[number]) => unknown) => events.reduce((at, e, i) => (has(e) ? i : at), -1);
      const lastSignal = lastIndex((e) => e.workflowExecutionSignaledEventAttributes);
      const lastTask = lastIndex((e) => e.workflowTaskCompletedEventAttributes);
      return signals === 3 && lastTask > lastSignal ? true : undefined;
    }, 'the preferences workflow to take its signals');
    return handle;
  },
};

/** A continued link's second half: the run as it resumes from the checkpoint. */
async function secondLink(client: Client, id: string): Promise<WorkflowHandle> {
  return client.workflow.getHandle(id);
}

async function run(): Promise<void> {
  const [outDir, ...only] = process.argv.slice(2);
  if (!outDir) throw new Error('usage: tsx scripts/capture-histories.ts <out-dir> [scenario ...]');
  Runtime.install({ logger: new DefaultLogger('WARN') });
  mkdirSync(outDir, { recursive: true });
  const server = await startDevServer({ headless: true });
  const fake = await startFakeAnthropic();
  scripts(fake);
  const taskQueue = `fixtures-${Date.now()}`;
  const agentWorker = await createAgentWorker({
    address: server.address,
    taskQueue,
    workspaceRoot: await mkdtemp(path.join(tmpdir(), 'fixture-ws-')),
    env: { ANTHROPIC_API_KEY: 'fixture', ANTHROPIC_BASE_URL: fake.baseUrl },
    agents: [
      {
        name: 'fixture',
        description: 'Captures fixture histories.',
        modelTier: 'balanced',
        tools: ['read_file', 'write_file', 'list_files', 'step'],
        systemPrompt: 'You produce fixture histories.',
        maxIterations: 30,
      },
    ],
    tools: [stepTool],
  });
  const { client } = agentWorker;
  try {
    await agentWorker.worker.runUntil(async () => {
      for (const [name, scenario] of Object.entries(scenarios)) {
        if (only.length > 0 && !only.includes(name)) continue;
        const id = `fixture-${name}-${Date.now()}`;
        const handle = await scenario({ client, taskQueue, id });
        const save = async (file: string, h: WorkflowHandle) => {
          writeFileSync(path.join(outDir, `${file}.json`), `${historyToJSON(await h.fetchHistory())}\n`);
          console.log(`wrote ${path.join(outDir, `${file}.json`)}`);
        };
        await save(name, handle);
        if (name.startsWith('continued')) await save(`${name}-last-link`, await secondLink(client, id));
        // Parked workflows are left to nobody: end them so the server holds nothing open.
        const latest = client.workflow.getHandle(handle.workflowId);
        if ((await latest.describe()).status.name === 'RUNNING') await latest.terminate('fixture captured');
      }
    });
  } finally {
    await agentWorker.close();
    fake.close();
    await server.stop();
  }
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
