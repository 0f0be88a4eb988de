import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { AgentClient } from '../client/agent-client';
import type { AgentRunHandle } from '../client/agent-run-handle';
import type { AgentRunInput } from '../contract/run-input';
import { tracingSettings } from '../runtime/observability/tracing';
import { createAgentWorker, type AgentWorker, type AgentWorkerOptions } from '../runtime/worker-setup/create-agent-worker';
import type { Tool } from '../runtime/tools/tool-definition';
import { startFakeAnthropic, type FakeAnthropicOptions, type ScriptedModel } from './scripted-model';
import { toolCall, type ToolCallBlock } from './scripted-steps';
import { startTestServer } from './test-server';
import type { ToolInputs } from './tool-inputs';
import { cachedWorkflowBundle } from './workflow-bundle-cache';

export interface AgentTestEnvironmentOptions<T extends readonly Tool[] = Tool[]>
  extends Pick<AgentWorkerOptions, 'agents' | 'agentConfig' | 'lifecycleHandlers' | 'guardrails' | 'approvalHandlers' | 'conversations' | 'workerOptions' | 'workflowBundle'> {
  /** Your tools; `env.toolCall(name, input)` takes their names and inputs. */
  tools?: T;
  /**
   * A Temporal frontend that runs already (`host:port`). Without it a dev server is started with the
   * `temporal` CLI (found, else installed in the per-user cache; see ensureTemporalCli), or with
   * `@temporalio/testing` if that is installed and no CLI can be had, and stopped by `close()`.
   */
  address?: string;
  /** The workspace the tools work in (default: a fresh temporary folder, removed by `close()`). */
  workspaceRoot?: string;
  /** Worker settings besides the scripted model's (AGENT_SANDBOX, AGENT_APPROVERS_FILE, AGENT_MODEL_*...). */
  env?: NodeJS.ProcessEnv;
  /** Options of the scripted model (a listening host, token counting, prompt caching). */
  model?: FakeAnthropicOptions;
  /** Where the worker writes its audit log (default: none, so tests leave no log behind). */
  auditLog?: string | false;
}

/** A Temporal server, a scripted model and a worker serving your agents and tools, for one test file. */
export interface AgentTestEnvironment<T extends readonly Tool[] = Tool[]> {
  /** The scripted model: `model.script(taskSubstring, [reply(...), ...])`, and the requests it saw. */
  model: ScriptedModel;
  /** The typed client on the worker's task queue. */
  client: AgentClient;
  /** The worker (its registry, settings and Temporal client). */
  worker: AgentWorker;
  address: string;
  taskQueue: string;
  workspaceRoot: string;
  /**
   * A tool call for a scripted reply, `reply(env.toolCall('lookup_weather', { city: 'Paris' }))`: the
   * name is one of the environment's tools or the control tools every agent has (`complete_task`...),
   * and the input is checked against that tool's schema when the test compiles.
   */
  toolCall<N extends keyof ToolInputs<T> & string>(name: N, input: ToolInputs<T>[N], id?: string): ToolCallBlock;
  /** Starts a run on the worker's task queue with a fresh workflow id. */
  start(input: AgentRunInput): Promise<AgentRunHandle>;
  /** Stops the worker (runs still open are terminated), then the server and model it started. */
  close(): Promise<void>;
}

/** Webpack's bundle is reused from disk only for the worker it would be made for: no interceptors, bundler options or tracing. */
function mayUseCachedBundle(options: AgentTestEnvironmentOptions<readonly Tool[]>, workerEnv: NodeJS.ProcessEnv): boolean {
  const given = options.workerOptions ?? {};
  return !options.workflowBundle && !given.interceptors && !given.bundlerOptions && !given.workflowsPath && !given.workflowBundle && !tracingSettings(workerEnv);
}

/**
 * Starts what a test of your agents needs: a Temporal dev server (unless `address` names one), the
 * scripted model on loopback, and a worker with your agents and tools whose model is that script.
 * Runs are real Temporal workflows; only the model's answers are scripted. Decide approvals with the
 * run handle: `await run.waitForApprovals()`, then `run.approve()` or `run.reject({ reason })`.
 * Its first start on a machine may install the CLI and bundles the workflows (up to a minute); later
 * ones take a few seconds: give `beforeAll` a timeout for the first (see docs/guides/testing.md).
 */
export async function startAgentTestEnvironment<const T extends readonly Tool[] = []>(options: AgentTestEnvironmentOptions<T> = {}): Promise<AgentTestEnvironment<T>> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const { address: given, workspaceRoot: givenWorkspace, env, model: modelOptions, auditLog, tools, ...workerOptions } = options;
    const model = await startFakeAnthropic(modelOptions);
    cleanups.push(() => model.close());
    const workerEnv = { ANTHROPIC_API_KEY: 'scripted', ANTHROPIC_BASE_URL: model.baseUrl, ...env };
    // The server and the bundle are independent; both take a while on a first run.
    const [server, workflowBundle] = await Promise.all([
      given ? undefined : startTestServer(),
      mayUseCachedBundle(options, workerEnv) ? cachedWorkflowBundle() : undefined,
    ]);
    if (server) cleanups.push(() => server.stop());
    const address = given ?? server!.address;
    const workspaceRoot = givenWorkspace ?? (await mkdtemp(path.join(tmpdir(), 'agent-test-ws-')));
    if (!givenWorkspace) cleanups.push(() => rm(workspaceRoot, { recursive: true, force: true }));
    const taskQueue = `agent-test-${randomUUID().slice(0, 8)}`;
    const worker = await createAgentWorker({
      ...workerOptions,
      ...(workflowBundle ? { workflowBundle } : {}),
      tools: tools ? [...tools] : undefined,
      address,
      taskQueue,
      workspaceRoot,
      auditLog: auditLog ?? false,
      env: workerEnv,
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
      toolCall: (name, input, id) => toolCall(name, input, id),
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
