import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities';
import { validateTeam } from '../agents/validate-team';
import { loadApproverRegistry } from '../approvals/approver-registry';
import { AuditChain } from '../audit/audit-chain';
import { assertOutsideWorkspace } from '../audit/audit-path';
import { refuseUnknownOptions, unreachable, withConnectOptions } from '../config/connect-options';
import { describeWorkerSettings, type ServedSettings } from '../config/settings-banner';
import { unknownSettingWarnings } from '../config/unknown-settings';
import { parseWorkerSettings, WorkerSettingsError, type WorkerSettings } from '../config/worker-settings';
import { deploymentFrom, type WorkerDeployment } from '../config/deployment-settings';
import { conversationStoreFromEnv, DirectoryConversationStore } from '../conversation/conversation-store';
import { type ConversationStore } from '../conversation/conversation-store-types';
import { ConsoleLifecycleLogger } from '../lifecycle/console-logger';
import { lifecycleSinks } from '../lifecycle/lifecycle-sink';
import { startLiveRelay } from '../live/live-relay';
import type { RunStatus } from '../../contract/run-status';
import { openModelClients } from '../model/providers/open-model-clients';
import { startConfiguredTracing } from '../observability/tracing';
import type { ProcessRunner } from '../tools/sandbox/process-runner';
import { resolveWorkspaceRoot } from '../tools/workspace';
import { builtinTools } from '../tools/builtin';
import { mcpHostFor } from '../mcp/mcp-sandbox';
import { WORKER_OPTION_KEYS, type AgentWorker, type AgentWorkerOptions } from './agent-worker-options';
import { loadWorkerAgents, type WorkerAgents } from './load-agents';
import { ensureSearchAttributes } from './search-attributes-setup';
import { loadModelPrices, MODEL_PRICES_FILE_ENV } from '../model/model-prices';
import { checkNexusEndpoints } from './nexus-endpoints';
import { toolProcessRunner } from './tool-process-runner';
import { workerCloser } from './worker-closer';
import { workflowCode } from './workflow-bundle';

export type { AgentWorker, AgentWorkerOptions } from './agent-worker-options';

export { WORKFLOWS_PATH } from './workflow-bundle';

const BUILTIN_TOOL_NAMES: ReadonlySet<string> = new Set(builtinTools.map((tool) => tool.name));

/**
 * AGENT_MAX_CACHED_WORKFLOWS bounds the sticky workflow cache. The SDK's default (sized from the heap)
 * keeps every open run in memory, about 1.3 MiB each; a worker holding thousands of runs parked on
 * approvals sets it (see docs/guides/long-runs.md and `npm run bench:load`): an evicted run replays its
 * history when it wakes.
 */
export function maxCachedWorkflowsFromEnv(env: NodeJS.ProcessEnv): { maxCachedWorkflows?: number } {
  return maxCachedWorkflowsOf(parseWorkerSettings(env));
}

function maxCachedWorkflowsOf(settings: WorkerSettings): { maxCachedWorkflows?: number } {
  const value = settings.limits.maxCachedWorkflows;
  return value === undefined ? {} : { maxCachedWorkflows: value };
}

/** The `deployment` option, checked as the settings are (both fields, no dot in the name), over the settings' own. */
function deploymentOption(option: WorkerDeployment | undefined): Pick<WorkerSettings, 'deployment'> {
  if (option === undefined) return {};
  const { deployment, problems } = deploymentFrom(option.name, option.buildId, { name: 'deployment.name', buildId: 'deployment.buildId' });
  if (problems.length > 0 || !deployment) throw new WorkerSettingsError(problems.length > 0 ? problems : ['deployment is given with neither a name nor a build id; leave it out for an unversioned worker.']);
  return { deployment };
}

/**
 * A worker in a deployment polls as one of its versions. Its workflows are PINNED: a run (and every
 * task of it, also after days parked on an approval) stays on the build that started it, so it never
 * replays on code it did not start with; `agentRun` moves to the deployment's current build at its
 * next continue-as-new link (run-loop.ts asks for AUTO_UPGRADE there).
 */
function versioningOptions(deployment: WorkerDeployment | undefined): Pick<WorkerOptions, 'workerDeploymentOptions'> {
  if (!deployment) return {};
  return { workerDeploymentOptions: { useWorkerVersioning: true, version: { deploymentName: deployment.name, buildId: deployment.buildId }, defaultVersioningBehavior: 'PINNED' } };
}

/** Parses the settings from `env` once, warning about AGENT_* names nothing reads (likely typos). */
export function workerSettingsFrom(env: NodeJS.ProcessEnv): WorkerSettings {
  const settings = parseWorkerSettings(env);
  for (const warning of unknownSettingWarnings(env)) console.warn(`WARNING: ${warning}`);
  return settings;
}

/**
 * A shared store that cannot be reached is a configuration error: say so before polling. A store this
 * worker created from its settings is closed again when it fails; a caller's stays the caller's.
 */
async function prepareConversationStore(store: ConversationStore, { owned }: { owned: boolean }): Promise<void> {
  try {
    await store.prepare?.();
  } catch (error) {
    if (owned) await store.close?.();
    throw error;
  }
}

/**
 * Builds a worker for the agent task queue. Everything that can be wrong with the configuration is
 * checked before anything connects to Temporal: the configuration file, its MCP servers (started
 * here, so their tools are known), agent and tool definitions (and their command rules), the
 * sandbox (never silently downgraded), the approver registry, the conversation store and where the
 * audit log lives. Then the search attributes are registered.
 */
export async function createAgentWorker(options: AgentWorkerOptions = {}): Promise<AgentWorker> {
  refuseUnknownOptions('createAgentWorker()', options, WORKER_OPTION_KEYS);
  // Read once, before anything else: a bad value stops here, before any connection or process.
  const parsed = options.settings ?? workerSettingsFrom(options.env ?? process.env);
  const settings: WorkerSettings = { ...parsed, temporal: withConnectOptions(parsed.temporal, options), ...deploymentOption(options.deployment) };
  // The sandbox is resolved before the agents are loaded: stdio MCP servers start inside it.
  // Made now only when something will surely work in it: agents with file tools (the built-in agents
  // are such), or a configuration file whose MCP servers start in it; otherwise by the first call that needs it.
  const configured = options.workspaceRoot ?? settings.workspace.root;
  const filesNeeded = options.agents === undefined || (options.agents ?? []).some((agent) => (agent.tools ?? []).some((tool) => BUILTIN_TOOL_NAMES.has(tool)));
  const workspaceRoot = resolveWorkspaceRoot(configured, { create: filesNeeded || (options.agentConfig ?? settings.workspace.configFile) !== undefined });
  const processes = toolProcessRunner(settings);
  const mcpHost = mcpHostFor(processes, workspaceRoot);
  const configFile = options.agentConfig ?? settings.workspace.configFile;
  // The configuration file's ${VAR}s and MCP servers' env may name any variable: they get the whole environment.
  const agents = await loadWorkerAgents({ agents: options.agents, tools: options.tools, configFile, env: settings.env, mcpHost });
  try {
    return await startWorker(options, settings, agents, { workspaceRoot, processes });
  } catch (error) {
    await agents.mcp.close();
    throw error;
  }
}

async function startWorker(
  options: AgentWorkerOptions,
  workerSettings: WorkerSettings,
  { registry, mcp, configFile }: WorkerAgents,
  { workspaceRoot, processes }: { workspaceRoot: string; processes: ProcessRunner },
): Promise<AgentWorker> {
  const judges = { guardrails: options.guardrails ?? {}, approvalHandlers: options.approvalHandlers ?? {} };
  validateTeam(registry, judges);
  // Every provider the settings or an agent name is opened now: missing credentials stop the start here.
  const models = await openModelClients(workerSettings.model, [...registry.agents.values()].map((agent) => agent.provider), options.modelCredentials);
  // Read once, here: a prices file that is not valid stops the start, naming the file and the fix.
  const modelPrices = loadModelPrices(workerSettings.env[MODEL_PRICES_FILE_ENV]);
  const approverKeys = workerSettings.approversFile ? loadApproverRegistry(workerSettings.approversFile) : undefined;
  const conversations = options.conversations ?? conversationStoreFromEnv(workerSettings.conversationStore);
  const conversationsDir = conversations instanceof DirectoryConversationStore ? conversations.dir : undefined;
  if (conversationsDir) assertOutsideWorkspace(conversationsDir, workspaceRoot);
  // On by default, as `npm run worker` has it: the settings' file (AGENT_AUDIT_LOG, or this process's own
  // in AGENT_AUDIT_DIR); AGENT_AUDIT_LOG=off or `auditLog: false` turns it off.
  const auditFile = options.auditLog === false ? undefined : (options.auditLog ?? workerSettings.audit.log);
  if (auditFile) assertOutsideWorkspace(auditFile, workspaceRoot);

  await prepareConversationStore(conversations, { owned: !options.conversations });

  // Opened before anything connects to Temporal: a log that was cut stops the worker here, and
  // there are no connections yet to leave open.
  const audit = auditFile ? await AuditChain.open(auditFile, { headDir: workerSettings.audit.headDir }).catch(async (error: unknown) => {
    await mcp.close();
    throw error;
  }) : undefined;

  const settings = workerSettings.temporal;
  const tracing = options.tracing ?? startConfiguredTracing(workerSettings.observability.tracing);
  const plugins = tracing ? [tracing.plugin] : [];
  const connectionOptions = settings.connection;
  const { namespace, taskQueue } = settings;
  // A server that does not answer is named, with where its address came from and what to do.
  const clientConnection = await Connection.connect({ ...connectionOptions, connectTimeout: '10s' }).catch((error: unknown) => {
    throw unreachable(settings, error);
  });
  const attributes = await ensureSearchAttributes(clientConnection, namespace, options.registerSearchAttributes);
  if (attributes.warning) console.warn(`WARNING: ${attributes.warning}`);
  const nexus = await checkNexusEndpoints(clientConnection, registry).catch(async (error: unknown) => {
    await clientConnection.close();
    await audit?.close();
    throw error;
  });
  if (nexus.warning) console.warn(`WARNING: ${nexus.warning}`);
  const client = new Client({ connection: clientConnection, namespace, dataConverter: settings.dataConverter, plugins });
  const connection = await NativeConnection.connect(connectionOptions).catch(async (error: unknown) => {
    await clientConnection.close();
    throw unreachable(settings, error);
  });
  // The live relay (AGENT_LIVE_RELAY, on loopback by default): watchers that find it in a model call's
  // heartbeat get the run's text and status pushed, and cost Temporal nothing each (src/runtime/live/).
  // One that cannot listen is a warning: watchers then poll Temporal, as without it.
  const live = await startLiveRelay(workerSettings.live, { namespace, temporal: () => client, warn: (line) => console.warn(`WARNING: ${line}`) });

  const activities = createActivities({
    registry,
    workspaceRoot,
    conversations,
    anthropic: models,
    settings: workerSettings,
    temporal: () => client,
    taskQueue,
    processes,
    approverKeys,
    audit,
    mcp,
    configFile,
    judges,
    modelPrices,
    missingSearchAttributes: attributes.missing,
    live,
  });

  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue,
    activities,
    dataConverter: settings.dataConverter,
    plugins,
    ...(await workflowCode(options.workflowBundle, options.workerOptions, tracing)),
    // forkPoints is only called while a history replays, where a live worker drops it (fork-point.ts).
    // liveStatus: the statuses a run armed by the relay's watchStatus query pushes (contract/live-status.ts).
    sinks: {
      ...lifecycleSinks([...(options.lifecycleHandlers ?? []), ...(live ? [live.lifecycle] : [])]),
      forkPoints: { iterationEnded: { fn: () => undefined } },
      liveStatus: { changed: { fn: (info, status: RunStatus) => live?.pushed(info.workflowId, status) } },
    },
    // Heartbeats of a streaming model call carry its text so far; sent this often, a client
    // watching the run sees it within about a second.
    maxHeartbeatThrottleInterval: '500 milliseconds',
    ...maxCachedWorkflowsOf(workerSettings),
    ...versioningOptions(workerSettings.deployment),
    ...options.workerOptions,
  }).catch(async (error: unknown) => {
    await live?.close();
    throw error;
  });

  const served: ServedSettings = {
    auditLog: auditFile,
    metricsUrl: undefined,
    consoleLogger: (options.lifecycleHandlers ?? []).some((handler) => handler instanceof ConsoleLifecycleLogger),
    tracing: tracing !== undefined,
  };
  return {
    worker,
    registry,
    mcp,
    client,
    processes,
    searchAttributes: attributes,
    settings: workerSettings,
    auditLog: auditFile,
    describe: (more = {}) => describeWorkerSettings(workerSettings, { ...served, ...more }),
    close: workerCloser(worker, async () => {
      await live?.close();
      await connection.close();
      await clientConnection.close();
      await audit?.close();
      await mcp.close();
      // A store built here from AGENT_CONVERSATION_STORE is closed here; a caller's stays the caller's.
      if (!options.conversations) await conversations.close?.();
    }),
  };
}
