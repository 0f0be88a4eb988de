import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { AgentDefinitionInput } from '../../contract/agent-definition';
import type { LifecycleEvent } from '../../contract/lifecycle-event';
import type { AgentRegistry } from '../../runtime/agents/agent-registry';
import { validateTeam } from '../../runtime/agents/validate-team';
import type { TemporalSettings } from '../../runtime/config/worker-config';
import type { WorkerSettings } from '../../runtime/config/worker-settings';
import { MemoryConversationStore } from '../../runtime/conversation/conversation-store';
import type { ConversationStore } from '../../runtime/conversation/conversation-store-types';
import type { ApprovalHandlerFunction, GuardrailFunction } from '../../runtime/guardrails/guardrail-types';
import { mcpHostFor } from '../../runtime/mcp/mcp-sandbox';
import { openModelClients, type ModelClients } from '../../runtime/model/providers/open-model-clients';
import type { Tool } from '../../runtime/tools/tool-definition';
import { loadWorkerAgents } from '../../runtime/worker-setup/load-agents';
import { ensureSearchAttributes } from '../../runtime/worker-setup/search-attributes-setup';
import { toolProcessRunner } from '../../runtime/worker-setup/tool-process-runner';
import { replayLabBundle } from './replay-bundle';
import { ReplayAgentsError } from './replay-errors';
import { createShadowActivities } from './shadow-activities';
import { mcpServersForShadow } from './shadow-mcp';
import type { ShadowSession } from './shadow-session';

export interface ShadowWorkerOptions {
  client: Client;
  temporal: Pick<TemporalSettings, 'address' | 'namespace' | 'connection' | 'dataConverter'>;
  /** The worker settings the recorded runs were made with (model tiers, limits, sandbox, provider). */
  settings: WorkerSettings;
  /** Agents and tools to replay with (the testing kit's), besides or instead of a configuration file's. */
  agents?: AgentDefinitionInput[];
  tools?: Tool[];
  /** A YAML or JSON file of agents and MCP servers (`--agent-file`, else AGENT_CONFIG). */
  agentConfig?: string;
  guardrails?: Record<string, GuardrailFunction>;
  approvalHandlers?: Record<string, ApprovalHandlerFunction>;
  /** Open the real model clients, for shadows that ask the live model once they diverge. */
  liveModel?: boolean;
  /** The original worker's workspace root: MCP servers whose arguments name it get the shadow's folder instead. */
  sourceWorkspace?: string;
}

/** An in-process worker on a task queue of its own that runs shadows, and only shadows. */
export interface ShadowWorker {
  taskQueue: string;
  registry: AgentRegistry;
  /** The shadows' conversation store (in memory, this process's own). */
  conversations: ConversationStore;
  /** The model id of each tier, from the settings (what an agent without its own model asks for). */
  modelTiers: WorkerSettings['model']['tiers'];
  /** Starts serving a shadow's activities (before its run starts) and stops (after it ended). */
  follow(session: ShadowSession): void;
  unfollow(shadowId: string): void;
  close(): Promise<void>;
}

/**
 * Starts the shadow worker. It builds the agents the way a worker does (load-agents.ts: the same
 * checks, MCP servers started in the same sandbox) but its activities are the shadow adapters over the
 * worker's own (shadow-activities.ts), with a workspace root of its own (an empty folder: each shadow
 * gets its own throwaway copy), an in-memory conversation store, no audit log and no approver
 * registry. The original's workspace, audit log and conversation store are not among its parts.
 */
export async function startShadowWorker(options: ShadowWorkerOptions): Promise<ShadowWorker> {
  const { settings } = options;
  const root = await mkdtemp(path.join(tmpdir(), 'replay-lab-'));
  const processes = toolProcessRunner(settings);
  const loaded = await loadWorkerAgents({
    agents: options.agents,
    tools: options.tools,
    configFile: options.agentConfig,
    env: settings.env,
    mcpHost: mcpHostFor(processes, root),
    mcpServers: (servers) => mcpServersForShadow(servers, options.sourceWorkspace, root),
  }).catch(async (error: Error) => {
    await rm(root, { recursive: true, force: true });
    throw new ReplayAgentsError(`The agents to replay with could not be loaded, so nothing was replayed: ${error.message}`);
  });
  const cleanups: (() => Promise<unknown>)[] = [() => rm(root, { recursive: true, force: true }), () => loaded.mcp.close()];
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const judges = { guardrails: options.guardrails ?? {}, approvalHandlers: options.approvalHandlers ?? {} };
    try {
      validateTeam(loaded.registry, judges);
    } catch (error) {
      throw new ReplayAgentsError(`The agents to replay with could not be used, so nothing was replayed: ${(error as Error).message}`);
    }
    const live: ModelClients | undefined = options.liveModel ? await openModelClients(settings.model, [...loaded.registry.agents.values()].map((a) => a.provider)) : undefined;
    const sessions = new Map<string, ShadowSession>();
    const taskQueue = `replay-lab-${Math.random().toString(36).slice(2, 10)}`;
    const conversations = new MemoryConversationStore(100_000);
    const deps = {
      registry: loaded.registry,
      workspaceRoot: root,
      conversations,
      anthropic: live ?? (() => ({ messages: {} }) as never),
      settings,
      temporal: () => options.client,
      taskQueue,
      processes,
      mcp: loaded.mcp,
      ...(loaded.configFile ? { configFile: loaded.configFile } : {}),
      judges,
    };
    const connection = await NativeConnection.connect({ ...options.temporal.connection, address: options.temporal.address });
    cleanups.push(() => connection.close());
    await ensureSearchAttributes(options.client.connection as Connection, options.temporal.namespace);
    const worker = await Worker.create({
      connection,
      namespace: options.temporal.namespace,
      taskQueue,
      activities: createShadowActivities(deps, sessions, live),
      workflowBundle: await replayLabBundle(),
      dataConverter: options.temporal.dataConverter,
      sinks: {
        lifecycle: { emit: { fn: (_info, event: LifecycleEvent) => void sessions.get(event.workflowId)?.events.push(event) } },
        forkPoints: { iterationEnded: { fn: () => undefined } },
        replayLab: { recorded: { fn: () => undefined } },
        // A shadow run pushes its status only if someone arms it (watchStatus); no relay takes it here.
        liveStatus: { changed: { fn: () => undefined } },
      },
    });
    const running = worker.run();
    cleanups.push(async () => {
      worker.shutdown();
      await running;
    });
    return {
      taskQueue,
      registry: loaded.registry,
      modelTiers: settings.model.tiers,
      conversations,
      follow: (session) => void sessions.set(session.shadowId, session),
      unfollow: (shadowId) => void sessions.delete(shadowId),
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
