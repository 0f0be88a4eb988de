import type { Client } from '@temporalio/client';
import type { AgentRunInput } from '../contract/run-input';
import type { AgentRunWorkflow } from '../contract/agent-run-api';
import { parseClientSettings } from './client-settings';
import { connectClient } from './connect';
import { AgentRunHandle } from './agent-run-handle';
import { startRun } from './start-run';

export interface AgentClientOptions {
  /** A connected Temporal client (its namespace and data converter are the runs'). */
  client: Client;
  /** The task queue the agent workers poll (the workers' TEMPORAL_TASK_QUEUE). */
  taskQueue: string;
}

export interface StartOptions {
  /** The run's workflow id (default: the agent's name, the time and a random suffix). */
  workflowId?: string;
  memo?: Record<string, unknown>;
}

/**
 * The typed client for code that drives runs: start one and get an `AgentRunHandle` for the rest of
 * its life, or attach to one started elsewhere by its workflow id. `AgentClient.connect()` reads the
 * same settings as agentctl (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE, profiles, the
 * payload codec); `new AgentClient({ client, taskQueue })` uses a client the caller already has.
 */
export class AgentClient {
  readonly temporal: Client;
  readonly taskQueue: string;
  private readonly closeConnection?: () => Promise<void>;

  constructor(options: AgentClientOptions, closeConnection?: () => Promise<void>) {
    this.temporal = options.client;
    this.taskQueue = options.taskQueue;
    this.closeConnection = closeConnection;
  }

  /** Connects with the client settings read from `env` (default `process.env`); close() it when done. */
  static async connect(env: NodeJS.ProcessEnv = process.env): Promise<AgentClient> {
    const settings = parseClientSettings(env);
    const { client, close } = await connectClient(settings.temporal, settings.tracing);
    return new AgentClient({ client, taskQueue: settings.temporal.taskQueue }, close);
  }

  /** Starts a run (the input is checked first: InvalidRunRequestError) and returns its handle. */
  async start(input: AgentRunInput, options: StartOptions = {}): Promise<AgentRunHandle> {
    const handle = await startRun(this.temporal, input, { taskQueue: this.taskQueue, ...options });
    return this.attach(handle.workflowId);
  }

  /** The handle of a run started elsewhere (by agentctl, the console, another service). */
  attach(workflowId: string): AgentRunHandle {
    return new AgentRunHandle(this.temporal.workflow.getHandle<AgentRunWorkflow>(workflowId), this.temporal, this.taskQueue);
  }

  /** Closes the connection `connect()` opened; a client passed in stays the caller's. */
  async close(): Promise<void> {
    await this.closeConnection?.();
  }
}
