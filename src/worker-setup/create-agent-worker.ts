import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities';
import { createAgentRegistry, type AgentRegistry } from '../agents/agent-registry';
import { builtinAgents } from '../agents/builtin-agents';
import type { AgentDefinitionInput } from '../agents/agent-definition';
import { temporalSettings } from '../config/worker-config';
import { conversationStoreFromEnv, type ConversationStore } from '../conversation/conversation-store';
import type { LifecycleHandler } from '../lifecycle/lifecycle-handler';
import { lifecycleSinks } from '../lifecycle/lifecycle-sink';
import { createAnthropicClient } from '../model/anthropic-client';
import { builtinTools } from '../tools/builtin';
import type { Tool } from '../tools/tool-definition';
import { resolveWorkspaceRoot } from '../tools/workspace';
import { ensureSearchAttributes } from './search-attributes-setup';

export interface AgentWorkerOptions {
  address?: string;
  namespace?: string;
  taskQueue?: string;
  /** Agents to serve (default: the built-in `general` and `reader`). */
  agents?: AgentDefinitionInput[];
  /** Tools besides the built-in ones. */
  tools?: Tool[];
  workspaceRoot?: string;
  conversations?: ConversationStore;
  lifecycleHandlers?: LifecycleHandler[];
  /** Environment for the model client (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, AGENT_MODEL_*). */
  env?: NodeJS.ProcessEnv;
  /** A prebuilt workflow bundle (tests and benchmarks share one to start workers quickly). */
  workflowBundle?: WorkerOptions['workflowBundle'];
  workerOptions?: Partial<WorkerOptions>;
}

export interface AgentWorker {
  worker: Worker;
  registry: AgentRegistry;
  client: Client;
  /** Closes the connections; call after `worker.run()` has returned. */
  close(): Promise<void>;
}

export const WORKFLOWS_PATH = path.join(__dirname, '..', 'workflows', 'index.ts');

/**
 * Builds a worker for the agent task queue. The agent registry is checked first, so a bad agent or
 * tool definition throws before anything connects; then the search attributes are registered.
 */
export async function createAgentWorker(options: AgentWorkerOptions = {}): Promise<AgentWorker> {
  const registry = createAgentRegistry(options.agents ?? builtinAgents, [...builtinTools, ...(options.tools ?? [])]);
  const settings = temporalSettings(options.env ?? process.env);
  const address = options.address ?? settings.address;
  const namespace = options.namespace ?? settings.namespace;
  const taskQueue = options.taskQueue ?? settings.taskQueue;
  const workspaceRoot = resolveWorkspaceRoot(options.workspaceRoot);

  const clientConnection = await Connection.connect({ address });
  await ensureSearchAttributes(clientConnection, namespace);
  const client = new Client({ connection: clientConnection, namespace });
  const connection = await NativeConnection.connect({ address });
  const env = options.env ?? process.env;
  let anthropic: ReturnType<typeof createAnthropicClient> | undefined;

  const activities = createActivities({
    registry,
    workspaceRoot,
    conversations: options.conversations ?? conversationStoreFromEnv(env.AGENT_CONVERSATION_STORE),
    anthropic: () => (anthropic ??= createAnthropicClient(env)),
    temporal: () => client,
    taskQueue,
  });

  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue,
    activities,
    ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    sinks: lifecycleSinks(options.lifecycleHandlers ?? []),
    ...options.workerOptions,
  });

  return {
    worker,
    registry,
    client,
    async close() {
      await connection.close();
      await clientConnection.close();
    },
  };
}
