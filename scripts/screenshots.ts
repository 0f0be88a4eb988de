// `npm run screenshots`: proves runs read well in the real Temporal Web UI. Starts a dev server with
// its UI on a free port (in memory, so nothing of yours is touched), a worker with the offline demo
// model, creates a few runs (completed ones and one parked on an approval), and screenshots the run
// list and the parked run's page with headless Chromium (Debian's `chromium`, driven by playwright-core).
//
// Writes docs/screenshots/run-list.png and docs/screenshots/parked-run.png, and the approval console's
// pages (console-login.png, console-inbox.png, console-run.png; see scripts/console-screenshots.ts).
// CHROMIUM_PATH overrides /usr/bin/chromium (install it with `apt-get install -y chromium`).
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { chromium, type Locator, type Page } from 'playwright-core';
import { startRun } from '../src/client/start-run';
import { DEMO_LABEL, startDemoModelServer } from '../src/runtime/demo/demo-model-server';
import { createAgentWorker } from '../src/runtime/worker-setup/create-agent-worker';
import { decideApprovalUpdate, statusQuery } from '../src/contract/agent-run-api';
import { startDevServer } from './temporal-dev-server';
import { shootConsole } from './console-screenshots';

const OUT_DIR = path.join(__dirname, '..', 'docs', 'screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const TASK_QUEUE = 'agents';
const RUN_LIST_COLUMNS = ['Status', 'Workflow ID', 'AgentName', 'AgentStatus', 'Type', 'Start', 'End'].map((label, i) => ({ label, pinned: i < 2 }));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const parked = (handle: WorkflowHandle) =>
  until(`${handle.workflowId} to ask for approval`, async () => {
    const status = await handle.query(statusQuery);
    return status.phase === 'waiting_approval' ? status : undefined;
  });

/** Finished runs (approved, rejected, read-only, cancelled) and one left parked on an approval. */
async function createRuns(client: Client): Promise<WorkflowHandle> {
  const start = (agent: string, task: string, id: string) => startRun(client, { agent, task: `${DEMO_LABEL} ${task}`, user: 'alice' }, { taskQueue: TASK_QUEUE, workflowId: id });
  for (const [id, decision] of [['notes-approved', 'approve'], ['notes-rejected', 'reject']] as const) {
    const handle = await start('general', 'Look around the workspace and write demo-notes.md', id);
    const status = await parked(handle);
    await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: status.pendingApprovals[0]!.callId, decision, approver: 'alice' }] });
    await handle.result();
  }
  await (await start('reader', 'Tell me what is in the workspace', 'reader-look-around')).result();
  const cancelled = await start('general', 'Write demo-notes.md (cancelled while waiting)', 'notes-cancelled');
  await parked(cancelled);
  await cancelled.cancel();
  await cancelled.result().catch(() => undefined);
  const waiting = await start('general', 'Write demo-notes.md with what you find', 'notes-waiting-for-approval');
  await parked(waiting);
  return waiting;
}

interface Shot {
  url: string;
  /** What must be on screen before the picture is taken. */
  ready: (page: Page) => Locator;
  file: string;
  /** A tab or button to click first (e.g. "User Metadata"). */
  click?: string;
}

async function shoot(page: Page, { url, ready, file, click }: Shot): Promise<void> {
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  if (click) await page.getByRole('tab', { name: click }).or(page.getByRole('button', { name: click })).first().click({ timeout: 30_000 });
  try {
    await ready(page).first().waitFor({ timeout: 30_000 });
  } catch (error) {
    await page.screenshot({ path: file.replace(/\.png$/, '.failed.png'), fullPage: true });
    throw error;
  }
  // Let the UI finish its remaining requests and transitions before the picture.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(1_000);
  await page.screenshot({ path: file, fullPage: true });
  await rm(file.replace(/\.png$/, '.failed.png'), { force: true });
  process.stdout.write(`Wrote ${path.relative(process.cwd(), file)}\n`);
}

async function run(): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  Runtime.install({ logger: new DefaultLogger('WARN') });
  await mkdir(OUT_DIR, { recursive: true });
  const scratch = await mkdtemp(path.join(tmpdir(), 'durable-agent-screenshots-'));
  const server = await startDevServer({ headless: false });
  const model = await startDemoModelServer();
  try {
    const agentWorker = await createAgentWorker({
      address: server.address,
      taskQueue: TASK_QUEUE,
      workspaceRoot: path.join(scratch, 'workspace'),
      env: { ANTHROPIC_API_KEY: 'demo-offline', ANTHROPIC_BASE_URL: model.baseUrl },
    });
    try {
      // The worker keeps running while the pictures are taken: the UI's "current details" come from
      // a query that a worker answers.
      await agentWorker.worker.runUntil(async () => {
        const waiting = await createRuns(agentWorker.client);
        const ui = `http://127.0.0.1:${server.uiPort}/namespaces/default`;
        await until('the runs to reach visibility', async () => {
          const rows = [];
          for await (const info of agentWorker.client.workflow.list({ query: `WorkflowType = 'agentRun'` })) rows.push(info);
          return rows.length >= 5 ? rows : undefined;
        });
        const browser = await chromium.launchPersistentContext(path.join(scratch, 'profile'), {
          executablePath: CHROMIUM,
          headless: true,
          args: CHROMIUM_FLAGS,
          viewport: { width: 1440, height: 900 },
        });
        try {
          // The run list shows the agent and its phase: the search attribute columns are switched on
          // the way the UI stores a person's column choice (see temporalio/ui configurable-table-columns).
          const columns = JSON.stringify(JSON.stringify({ default: RUN_LIST_COLUMNS }));
          await browser.addInitScript({ content: `localStorage.setItem('namespace-workflow-table-columns', ${columns});` });
          const page = browser.pages()[0] ?? (await browser.newPage());
          await shoot(page, { url: `${ui}/workflows`, ready: (p) => p.getByText('waiting_approval'), file: path.join(OUT_DIR, 'run-list.png') });
          const runUrl = `${ui}/workflows/${waiting.workflowId}/${(await waiting.describe()).runId}/history`;
          await shoot(page, {
            url: runUrl,
            click: 'User Metadata',
            // The UI renders the run's markdown (its current details) inside an iframe.
            ready: (p) => p.frameLocator('#user-metadata-current-details').getByText('Waiting for approval'),
            file: path.join(OUT_DIR, 'parked-run.png'),
          });
          // The same run's history, compact: model and tool activities carry summaries.
          await shoot(page, { url: runUrl, click: 'Compact', ready: (p) => p.getByText('model balanced #2'), file: path.join(OUT_DIR, 'run-history.png') });
          await shootConsole({
            client: agentWorker.client,
            browser,
            workspace: path.join(scratch, 'workspace'),
            taskQueue: TASK_QUEUE,
            uiBaseUrl: `http://127.0.0.1:${server.uiPort}`,
            outDir: OUT_DIR,
            finishedRunId: 'notes-approved',
          });
        } finally {
          await browser.close();
        }
      });
    } finally {
      await agentWorker.close();
    }
  } finally {
    await model.close();
    await server.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}

run().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
