import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { AgentClient } from '../client/agent-client';
import type { AgentRunHandle } from '../client/agent-run-handle';
import type { AgentRunInput } from '../contract/run-input';
import { createAgentWorker, type AgentWorker, type AgentWorkerOptions } from '../runtime/worker-setup/create-agent-worker';
import { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions } from './scripted-model';
import { startDevServer, type DevServer } from './temporal-dev-server';

export interface AgentTestEnvironmentOptions
  extends Pick<AgentWorkerOptions, 'agents' | 'tools' | 'agentConfig' | 'lifecycleHandlers' | 'guardrails' | 'approvalHandlers' | 'conversations' | 'workerOptions'> {
  /**
   * A Temporal frontend that runs already (`host:port`). Without it a dev server is started with the
   * `temporal` CLI (see findTemporalCli) and stopped by `close()`.
   */
  address?: string;
  /** The workspace the tools work in (default: a fresh temporary folder, removed by `close()`). */
  workspaceRoot?: string;
  /** Worker settings besides the scripted model's (AGENT_SANDBOX, AGENT_APPROVERS_FILE, AGENT_MODEL_*...). */
  env?: NodeJS.ProcessEnv;
  /** Options of the scripted model (a listening host, token counting, prompt caching). */
  model?: FakeAnthropicOptions;
}

/** A Temporal server, a scripted model and a worker serving your agents and tools, for one test file. */
export interface AgentTestEnvironment {
  /** The scripted model: `model.script(taskSubstring, [reply(...), ...])`, and the requests it saw. */
  model: FakeAnthropic;
  /** The typed client on the worker's task queue. */
  client: AgentClient;
  /** The worker (its registry, settings and Temporal client). */
  worker: AgentWorker;
  address: string;
  taskQueue: string;
  workspaceRoot: string;
  /** Starts a run on the worker's task queue with a fresh workflow id. */
  start(input: AgentRunInput): Promise<AgentRunHandle>;
  /** Stops the worker (runs still open are terminated), then the server and model it started. */
  close(): Promise<void>;
}

/**
 * Starts what a test of your agents needs: a Temporal dev server (unless `address` names one), the
 * scripted model on loopback, and a worker with your agents and tools whose model is that script.
 * Runs are real Temporal workflows; only the model's answers are scripted. Decide approvals with the
 * run handle: `await run.waitForApprovals()`, then `run.approve()` or `run.reject({ reason })`.
 */
export async function startAgentTestEnvironment(options: AgentTestEnvironmentOptions = {}): Promise<AgentTestEnvironment> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const model = await startFakeAnthropic(options.model);
    cleanups.push(() => model.close());
    let server: DevServer | undefined;
    if (!options.address) {
      server = await startDevServer({ headless: true });
      cleanups.push(() => server!.stop());
    }
    const address = options.address ?? server!.address;
    const workspaceRoot = options.workspaceRoot ?? (await mkdtemp(path.join(tmpdir(), 'agent-test-ws-')));
    if (!options.workspaceRoot) cleanups.push(() => rm(workspaceRoot, { recursive: true, force: true }));
    const taskQueue = `agent-test-${randomUUID().slice(0, 8)}`;
    const { address: _a, workspaceRoot: _w, env, model: _m, ...workerOptions } = options;
    const worker = await createAgentWorker({
      ...workerOptions,
      address,
      taskQueue,
      workspaceRoot,
      env: { ANTHROPIC_API_KEY: 'scripted', ANTHROPIC_BASE_URL: model.baseUrl, ...env },
    });
    cleanups.push(() => worker.close());
    const running = worker.worker.run();
    const started: AgentRunHandle[] = [];
    cleanups.push(async () => {
      await Promise.all(started.map((run) => run.temporal.terminate('the test environment closed').catch(() => undefined)));
      worker.worker.shutdown();
      await running;
    });
    const client = new AgentClient({ client: worker.client, taskQueue });
    return {
      model,
      client,
      worker,
      address,
      taskQueue,
      workspaceRoot,
      async start(input) {
        const run = await client.start(input, { workflowId: `${input.agent}-${randomUUID().slice(0, 8)}` });
        started.push(run);
        return run;
      },
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
