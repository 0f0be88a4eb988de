// Runs agentRun workflows against the shared dev server with an in-process worker whose model is the
// fake Messages API. Each call gets its own task queue and workspace, so test files never meet.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ApplicationFailure, WorkflowFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, Runtime, type WorkflowBundle } from '@temporalio/worker';
import { expect } from 'vitest';
import { startRun } from '../../src/client/start-run';
import type { agentRun } from '../../src/workflows/agent-run';
import type { AgentRunInput } from '../../src/contract/run-input';
import { statusQuery } from '../../src/contract/agent-run-api';
import type { RunPhase } from '../../src/contract/run-records';
import type { RunStatus } from '../../src/contract/run-status';
import { createAgentWorker, WORKFLOWS_PATH, type AgentWorkerOptions } from '../../src/runtime/worker-setup/create-agent-worker';
import type { FakeAnthropic } from './fake-anthropic';
import { temporalAddress, uniqueId } from './temporal';

/** Worker state changes at INFO would bury a failing test's output; warnings and errors still show. */
export function quietTemporalLogs(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // Already installed or instantiated in this test process: keep what is there.
  }
}

/**
 * The workflow bundle for a test file's workers. Bundling takes seconds of CPU, so the suite's global
 * setup bundles once and hands every test file the same code (DURABLE_AGENT_TEST_BUNDLE); a file run
 * on its own, outside the suite's setup, bundles for itself.
 */
export async function bundleAgentWorkflows(): Promise<WorkflowBundle> {
  const prebuilt = process.env[TEST_BUNDLE_ENV];
  if (prebuilt) return { code: await readFile(prebuilt, 'utf8') };
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') });
}

/** Where the global setup wrote the suite's one workflow bundle. */
export const TEST_BUNDLE_ENV = 'DURABLE_AGENT_TEST_BUNDLE';

export function tempWorkspace(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'agent-ws-'));
}

export interface RunHarness {
  client: Client;
  taskQueue: string;
  /** The worker's workspace root. */
  workspace: string;
  /** Starts a run on this worker's task queue with a unique workflow id. */
  start(input: AgentRunInput): Promise<WorkflowHandle<typeof agentRun>>;
}

export interface HarnessOptions
  extends Pick<AgentWorkerOptions, 'agents' | 'tools' | 'lifecycleHandlers' | 'conversations' | 'workerOptions' | 'auditLog' | 'guardrails' | 'approvalHandlers' | 'tracing' | 'modelCredentials'> {
  /** Worker settings besides the fake model's (AGENT_SANDBOX, AGENT_APPROVERS_FILE, AGENT_MODEL_*...). */
  env?: NodeJS.ProcessEnv;
  /** The model the worker calls: the fake Messages API, or anything else serving it (the demo model). */
  fake: Pick<FakeAnthropic, 'baseUrl'>;
  workflowBundle: WorkflowBundle;
  workspace?: string;
  /** The Temporal frontend to use instead of the shared dev server (a test's own, e.g. to restart it). */
  address?: string;
  /** Leave the runs this worker started as they are when it stops (a later worker continues them). */
  keepRuns?: boolean;
  /** Poll this task queue instead of a fresh one (so a second worker can take over the first one's runs). */
  taskQueue?: string;
}

/** Starts a worker, runs `body` while it polls, and always shuts it down and closes its connections. */
export async function withAgentWorker<T>(options: HarnessOptions, body: (harness: RunHarness) => Promise<T>): Promise<T> {
  quietTemporalLogs();
  const taskQueue = options.taskQueue ?? uniqueId('q');
  const workspace = options.workspace ?? (await tempWorkspace());
  const agentWorker = await createAgentWorker({
    address: options.address ?? temporalAddress(),
    taskQueue,
    workspaceRoot: workspace,
    // The head copies go where the global setup put them for the whole run (the worker reads only `env`).
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: options.fake.baseUrl, AGENT_AUDIT_HEAD_DIR: process.env.AGENT_AUDIT_HEAD_DIR, ...options.env },
    // Tests that check the audit log pass one; the rest write none (a worker's default is a file in the cwd).
    auditLog: options.auditLog ?? false,
    guardrails: options.guardrails,
    approvalHandlers: options.approvalHandlers,
    workflowBundle: options.workflowBundle,
    agents: options.agents,
    tools: options.tools,
    lifecycleHandlers: options.lifecycleHandlers,
    conversations: options.conversations,
    workerOptions: options.workerOptions,
    tracing: options.tracing,
    modelCredentials: options.modelCredentials,
  });
  const { client } = agentWorker;
  const started: WorkflowHandle[] = [];
  const harness: RunHarness = {
    client,
    taskQueue,
    workspace,
    start: async (input) => {
      const handle = await startRun(client, input, { taskQueue, workflowId: uniqueId('run') });
      started.push(handle);
      return handle;
    },
  };
  try {
    return await agentWorker.worker.runUntil(body(harness));
  } finally {
    if (!options.keepRuns) await terminateLeftovers(started);
    await agentWorker.close();
  }
}

/**
 * Runs a test left parked or running would stay on the shared server for the rest of the suite (and
 * show up in every later listing); they are terminated when their worker stops.
 */
async function terminateLeftovers(handles: readonly WorkflowHandle[]): Promise<void> {
  await Promise.all(
    handles.map(async (handle) => {
      const { status } = await handle.describe().catch(() => ({ status: undefined }));
      if (status?.name === 'RUNNING') await handle.terminate('the test that started this run has finished').catch(() => undefined);
    }),
  );
}

/** Polls `probe` until it returns a value other than undefined; probe errors count as "not yet". */
export async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
}

/** Waits until the run's status query reports `phase` (e.g. parked on `waiting_approval`) and returns that status. */
export function waitForPhase(handle: WorkflowHandle, phase: RunPhase, timeoutMs?: number): Promise<RunStatus> {
  return waitFor(
    async () => {
      const status = await handle.query(statusQuery);
      return status.phase === phase ? status : undefined;
    },
    `${handle.workflowId} to reach phase ${phase}`,
    timeoutMs,
  );
}

/**
 * Waits for a run to fail and returns the ApplicationFailure the client sees, and how long that took.
 * A run stuck retrying its workflow task never fails, so the wait is bounded: such a bug fails the
 * test in seconds instead of at the test timeout.
 */
export async function runFailure(result: Promise<unknown>, withinMs = 10_000): Promise<{ failure: ApplicationFailure; elapsedMs: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`the run had not failed after ${withinMs} ms (a workflow task retry loop?)`), withinMs);
  });
  const outcome = await Promise.race([
    result.then(
      () => 'the run succeeded',
      (e: unknown) => e,
    ),
    stuck,
  ]).finally(() => clearTimeout(timer));
  expect(outcome).toBeInstanceOf(WorkflowFailedError);
  const failure = (outcome as WorkflowFailedError).cause;
  expect(failure).toBeInstanceOf(ApplicationFailure);
  return { failure: failure as ApplicationFailure, elapsedMs: Date.now() - started };
}

/** Waits until the run is parked on at least `count` approvals, and returns that status. */
export function waitForApprovals(handle: WorkflowHandle, count = 1, timeoutMs?: number): Promise<RunStatus> {
  return waitFor(
    async () => {
      const status = await handle.query(statusQuery);
      return status.phase === 'waiting_approval' && status.pendingApprovals.length >= count ? status : undefined;
    },
    `${handle.workflowId} to wait for ${count} approval(s)`,
    timeoutMs,
  );
}

/** The tool results a request carries in its last message, in order. */
export function toolResultsIn(request: { body: { messages: unknown[] } } | undefined): { tool_use_id: string; content: string; is_error?: boolean }[] {
  const last = request?.body.messages.at(-1) as { role?: string; content?: unknown } | undefined;
  return Array.isArray(last?.content) ? (last.content as { tool_use_id: string; content: string; is_error?: boolean }[]) : [];
}
