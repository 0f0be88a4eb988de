import type { Client } from '@temporalio/client';
import type { AgentRunInput } from '../contract/run-input';
import type { AgentDefinitionInput } from '../contract/agent-definition';
import type { AgentOutput } from '../contract/define-agent';
import type { AgentRunWorkflow } from '../contract/agent-run-api';
import { parseClientSettings } from './client-settings';
import { connectClient } from './connect';
import { CONNECT_OPTION_KEYS, refuseUnknownOptions, withConnectOptions, type AgentConnectOptions } from '../runtime/config/connect-options';
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

/** An environment object (`process.env`): only upper-case names, so a mistyped option is not taken for one. */
export type EnvironmentVariables = { readonly [name: Uppercase<string>]: string | undefined };

/**
 * Tells the two call shapes of `connect` apart: `process.env` itself or an object of upper-case
 * names is an environment (the older shape); anything else must be options, every key known.
 */
function connectOptionsOf(arg: AgentConnectOptions | EnvironmentVariables): AgentConnectOptions {
  const keys = Object.keys(arg);
  const environment = arg === process.env || (keys.length > 0 && keys.every((key) => /^[A-Z_][A-Z0-9_]*$/.test(key)));
  if (environment) return { env: arg as NodeJS.ProcessEnv };
  refuseUnknownOptions('AgentClient.connect()', arg, CONNECT_OPTION_KEYS);
  return arg as AgentConnectOptions;
}

/**
 * The typed client for code that drives runs: start one and get an `AgentRunHandle` for the rest of
 * its life, or attach to one started elsewhere by its workflow id. `AgentClient.connect(options)` takes
 * the worker's connection options over the same settings as agentctl (TEMPORAL_ADDRESS,
 * TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE, profiles, the payload codec);
 * `new AgentClient({ client, taskQueue })` uses a client the caller already has.
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

  /**
   * Connects to Temporal; close() the client when done. The options are the worker's
   * (`createAgentWorker`): each one given overrides the environment's setting (`env`, default
   * `process.env`: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_TASK_QUEUE, TEMPORAL_TLS*,
   * TEMPORAL_API_KEY, profiles, the payload codec). An unknown option is refused (UnknownOptionError).
   */
  static connect(options?: AgentConnectOptions): Promise<AgentClient>;
  /** @deprecated Pass `{ env }`: `AgentClient.connect({ env: myEnv })`. An environment object is still read as before. */
  static connect(env: EnvironmentVariables): Promise<AgentClient>;
  static async connect(arg: AgentConnectOptions | EnvironmentVariables = {}): Promise<AgentClient> {
    const options = connectOptionsOf(arg);
    const settings = parseClientSettings(options.env ?? process.env);
    const temporal = withConnectOptions(settings.temporal, options);
    const { client, close } = await connectClient(temporal, settings.tracing);
    return new AgentClient({ client, taskQueue: temporal.taskQueue }, close);
  }

  /** Starts a run (the input is checked first: InvalidRunRequestError) and returns its handle. */
  start(input: AgentRunInput, options?: StartOptions): Promise<AgentRunHandle>;
  /**
   * Starts a run of an agent defined with `defineAgent` (by its name; a worker must serve it): the
   * handle's `result().output` has the type of the agent's zod `outputSchema`.
   */
  start<const A extends AgentDefinitionInput>(agent: A, input: Omit<AgentRunInput, 'agent'>, options?: StartOptions): Promise<AgentRunHandle<AgentOutput<A>>>;
  async start(first: AgentRunInput | AgentDefinitionInput, second?: StartOptions | Omit<AgentRunInput, 'agent'>, third?: StartOptions): Promise<AgentRunHandle<unknown>> {
    // An agent definition carries its system prompt; a run input never does.
    const [input, options]: [AgentRunInput, StartOptions] =
      'systemPrompt' in first ? [{ ...(second as Omit<AgentRunInput, 'agent'>), agent: first.name }, third ?? {}] : [first, (second ?? {}) as StartOptions];
    const handle = await startRun(this.temporal, input, { taskQueue: this.taskQueue, ...options });
    return this.attach(handle.workflowId);
  }

  /** The handle of a run started elsewhere (by agentctl, the console, another service); `TOutput` types its output. */
  attach<TOutput = unknown>(workflowId: string): AgentRunHandle<TOutput> {
    return new AgentRunHandle<TOutput>(this.temporal.workflow.getHandle<AgentRunWorkflow>(workflowId), this.temporal, this.taskQueue);
  }

  /** Closes the connection `connect()` opened; a client passed in stays the caller's. */
  async close(): Promise<void> {
    await this.closeConnection?.();
  }
}
