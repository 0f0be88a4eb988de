// `npm start` end to end, on the TEMPORAL_ADDRESS path (the shared test server) and on the embedded
// server's path (moved to free ports and a temporary database file, since a test machine cannot
// promise 7233/8233). No ANTHROPIC_API_KEY and no terminal, as in CI: the demo model runs and the
// demo approves its own write, saying so.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LABEL, DEMO_NOTES_FILE, startDemoModelServer, type DemoModelServer } from '../../src/runtime/demo/demo-model-server';
import type { AuditRecord } from '../../src/runtime/audit/audit-record';
import { connectClient } from '../../src/client/connect';
import { temporalSettings } from '../../src/runtime/config/worker-config';
import { startRun } from '../../src/client/start-run';
import { approvalSignal } from '../../src/contract/agent-run-api';
import { freePort } from '../../scripts/temporal-dev-server';
import { SAMPLE_TASK } from '../../src/runtime/demo/sample-task';
import { reply, startFakeAnthropic, toolCall } from '../support/fake-anthropic';
import { bundleAgentWorkflows, tempWorkspace, waitForPhase, withAgentWorker } from '../support/agent-run-harness';
import { newClient, temporalAddress, uniqueId } from '../support/temporal';

const START = path.join(__dirname, '..', '..', 'scripts', 'start.js');

interface StartProcess {
  child: ChildProcess;
  /** Everything printed so far. */
  readonly stdout: string;
  readonly stderr: string;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function spawnStart(env: NodeJS.ProcessEnv): StartProcess {
  const { ANTHROPIC_API_KEY: _key, TEMPORAL_ADDRESS: _address, ...inherited } = process.env;
  const child = spawn(process.execPath, [START], { env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    exited,
  };
}

const runStart = (env: NodeJS.ProcessEnv) => spawnStart(env).exited;

/** True once nothing accepts connections on the port any more. */
function portClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

/** Parks two demo runs on a worker that then stops, as if a previous `npm start` had ended. */
async function parkTwoRuns(model: DemoModelServer) {
  const workflowBundle = await bundleAgentWorkflows();
  // Queries need a worker, so the parked call's id is read while this one still runs.
  return withAgentWorker({ fake: model, workflowBundle, keepRuns: true }, async ({ start, taskQueue }) => {
    const park = async () => {
      const handle = await start({ agent: 'general', task: 'earlier demo' });
      const status = await waitForPhase(handle, 'waiting_approval');
      return { workflowId: handle.workflowId, callId: status.pendingApprovals[0]!.callId };
    };
    const [waiting, approved] = await Promise.all([park(), park()]);
    return { taskQueue, waiting, approved };
  });
}

describe('npm start (scripts/start.js) against TEMPORAL_ADDRESS', () => {
  let model: DemoModelServer;
  beforeAll(async () => {
    model = await startDemoModelServer();
  });
  afterAll(() => model.close());

  it('runs the demo sample to the end, reports parked runs, and lets an approved one finish', async () => {
    const { taskQueue, waiting, approved } = await parkTwoRuns(model);
    const client = await newClient();
    try {
      // Decided while no worker runs: the server keeps the signal for the next worker.
      await client.workflow.getHandle(approved.workflowId).signal(approvalSignal, { callId: approved.callId, decision: 'approve', approver: 'tester' });

      const workspace = await tempWorkspace();
      const auditFile = path.join(workspace, '..', `${path.basename(workspace)}-audit.log`);
      const { code, stdout, stderr } = await runStart({
        TEMPORAL_ADDRESS: temporalAddress(),
        TEMPORAL_TASK_QUEUE: taskQueue,
        AGENT_WORKSPACE: workspace,
        AGENT_AUDIT_LOG: auditFile,
        START_EXIT_AFTER_RUN: '1',
        START_DEMO_DELAY_MS: '0',
        // Any free port: a fixed one may be taken on a shared test machine.
        AGENT_CONSOLE_PORT: '0',
      });
      expect(code, stderr).toBe(0);
      expect(stdout).toContain(`Using the Temporal server at ${temporalAddress()} (TEMPORAL_ADDRESS).`);
      expect(stdout).toContain(`${DEMO_LABEL} ANTHROPIC_API_KEY is not set`);
      // The same settings banner as `npm run worker`, once, with the server and the demo model chosen here.
      expect(stdout.match(/^Settings:$/gm)).toHaveLength(1);
      expect(stdout).toContain(`  TEMPORAL_ADDRESS: ${temporalAddress()} (namespace default, from environment)`);
      expect(stdout).toMatch(/^ {2}ANTHROPIC_BASE_URL: http:\/\/127\.0\.0\.1:\d+/m);
      expect(stdout).toMatch(/Approval console: http:\/\/127\.0\.0\.1:\d+\/ {2}\(log in with the start token [\w-]{43}\)/);
      expect(stdout).toMatch(new RegExp(`${waiting.workflowId}: waiting_approval \\(write_file\\)\\n +Approve: npx agentctl approve ${waiting.workflowId}`));
      expect(stdout).toContain('stdin is not a terminal: auto-approving write_file for the demo');
      expect(stdout).toMatch(/── Iteration 3\/40/);
      expect(stdout).toMatch(/✅ Run \S+ finished after 3 iteration\(s\): success/);
      expect(stdout).toContain(`Summary: ${DEMO_LABEL} Listed the workspace and wrote ${DEMO_NOTES_FILE}`);
      expect(await readFile(path.join(workspace, DEMO_NOTES_FILE), 'utf8')).toContain(DEMO_LABEL);

      const audit = (await readFile(auditFile, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as AuditRecord);
      expect(audit).toContainEqual(expect.objectContaining({ kind: 'call', tool: 'write_file', decision: 'approve', approver: 'npm-start-auto', outcome: 'success' }));

      // The run approved while no worker ran was finished by npm start's worker.
      expect((await client.workflow.getHandle(approved.workflowId).describe()).status.name).toBe('COMPLETED');
    } finally {
      await client.connection.close();
    }
  });

  it('keeps runs in its database file across starts, and Ctrl-C stops the worker and the embedded server', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'npm-start-'));
    const [port, uiPort] = [await freePort(), await freePort()];
    const taskQueue = uniqueId('q-start');
    const env = {
      START_TEMPORAL_PORT: String(port),
      START_UI_PORT: String(uiPort),
      START_DB_FILE: path.join(dir, 'dev.db'),
      TEMPORAL_TASK_QUEUE: taskQueue,
      AGENT_WORKSPACE: path.join(dir, 'workspace'),
      AGENT_AUDIT_LOG: path.join(dir, 'audit.log'),
      START_DEMO_DELAY_MS: '0',
    };
    const first = spawnStart(env);
    try {
      await waitForPhaseText(first, 'Press Ctrl-C to stop the worker and the server.');
      // START_UI_PORT moved the embedded server's Web UI: it answers there, and the start says so.
      expect(first.stdout).toContain(`Web UI: http://localhost:${uiPort}`);
      expect((await fetch(`http://127.0.0.1:${uiPort}/`)).status).toBe(200);
      // A run started from another client parks on its write: nobody follows it to approve.
      const { client, close } = await connectClient(temporalSettings({ TEMPORAL_ADDRESS: `127.0.0.1:${port}`, TEMPORAL_NAMESPACE: 'default', TEMPORAL_TASK_QUEUE: taskQueue }));
      const parked = await startRun(client, { agent: 'general', task: `${DEMO_LABEL} parked across starts` }, { taskQueue, workflowId: uniqueId('parked') });
      await waitForPhase(parked, 'waiting_approval');
      await close();

      first.child.kill('SIGINT');
      const stopped = await first.exited;
      expect(stopped.code, stopped.stderr).toBe(0);
      expect(stopped.stdout).toContain('Stopping: worker shutdown, then the Temporal dev server...');
      expect(stopped.stdout).toContain('Stopped. Parked runs are kept and continue after the next `npm start`.');
      // The server went with it: nothing listens on its port any more.
      expect(await portClosed(port)).toBe(true);

      // The next start finds the parked run in the same database file and says how to decide it.
      const second = await runStart({ ...env, START_EXIT_AFTER_RUN: '1' });
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toMatch(new RegExp(`${parked.workflowId}: waiting_approval \\(write_file\\)`));
      expect(await portClosed(port)).toBe(true);
    } finally {
      if (first.child.exitCode === null) first.child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('puts the embedded server\'s Web UI on port 8233 by default', async () => {
    // Hold 8233 (when something else already does, it is just as taken): the start must refuse to put
    // its Web UI there, naming that port. START_UI_PORT moving it is shown by the test above.
    const holder = net.createServer();
    await new Promise<void>((resolve) => {
      holder.once('error', () => resolve());
      holder.listen(8233, '127.0.0.1', () => resolve());
    });
    const dir = await mkdtemp(path.join(tmpdir(), 'npm-start-ui-'));
    try {
      const { code, stdout, stderr } = await runStart({ START_TEMPORAL_PORT: String(await freePort()), START_DB_FILE: path.join(dir, 'dev.db'), START_EXIT_AFTER_RUN: '1' });
      expect(code).not.toBe(0);
      expect(stdout + stderr).toContain('Port 8233 (Temporal Web UI) is already in use');
    } finally {
      await new Promise<void>((resolve) => (holder.listening ? holder.close(() => resolve()) : resolve()));
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('with ANTHROPIC_API_KEY set, runs the sample on the Anthropic API with that key, not the demo model', async () => {
    // The Messages API is the fake, reached through ANTHROPIC_BASE_URL as the SDK would reach Claude.
    const fake = await startFakeAnthropic();
    try {
      fake.script(SAMPLE_TASK, [reply(toolCall('complete_task', { summary: 'looked around', status: 'success' }))]);
      const { code, stdout, stderr } = await runStart({
        TEMPORAL_ADDRESS: temporalAddress(),
        TEMPORAL_TASK_QUEUE: uniqueId('q-claude'),
        AGENT_WORKSPACE: await tempWorkspace(),
        AGENT_AUDIT_LOG: 'off',
        START_EXIT_AFTER_RUN: '1',
        ANTHROPIC_API_KEY: 'sk-ant-start-test',
        ANTHROPIC_BASE_URL: fake.baseUrl,
      });
      expect(code, stderr).toBe(0);
      expect(stdout).toContain('Model: Claude via the Anthropic API (ANTHROPIC_API_KEY is set).');
      expect(stdout).not.toContain(DEMO_LABEL);
      expect(stdout).toContain('Summary: looked around');
      const [request] = fake.requestsFor(SAMPLE_TASK);
      // The SDK sends the key as x-api-key or as a bearer token, depending on its version.
      expect(`${request?.headers['x-api-key'] ?? ''} ${request?.headers.authorization ?? ''}`).toContain('sk-ant-start-test');
      expect(request?.body.model).toMatch(/^claude-/);
      expect(fake.errors).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it('says it cannot reach a TEMPORAL_ADDRESS that does not answer', async () => {
    const { code, stderr } = await runStart({ TEMPORAL_ADDRESS: '127.0.0.1:1', START_EXIT_AFTER_RUN: '1' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Cannot reach Temporal at 127\.0\.0\.1:1 /);
  });
});

async function waitForPhaseText(start: StartProcess, text: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!start.stdout.includes(text)) {
    if (start.child.exitCode !== null || Date.now() > deadline) throw new Error(`npm start never printed "${text}":\n${start.stdout}\n${start.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
