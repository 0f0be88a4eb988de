import type { Client } from '@temporalio/client';
import type { Worker, WorkerOptions } from '@temporalio/worker';
import type { AgentDefinitionInput } from '../../contract/agent-definition';
import type { AgentRegistry } from '../agents/agent-registry';
import type { WorkerDeployment } from '../config/deployment-settings';
import type { ServedSettings } from '../config/settings-banner';
import type { WorkerSettings } from '../config/worker-settings';
import { CONNECT_OPTION_FIELDS, type AgentConnectOptions } from '../config/connect-options';
import type { ConversationStore } from '../conversation/conversation-store-types';
import type { ApprovalHandlerFunction, GuardrailFunction } from '../guardrails/guardrail-types';
import type { LifecycleHandler } from '../lifecycle/lifecycle-handler';
import type { McpPool } from '../mcp/mcp-pool';
import type { ModelCredentials } from '../model/providers/model-client';
import type { Tracing } from '../observability/tracing';
import type { ProcessRunner } from '../tools/sandbox/process-runner';
import type { Tool } from '../tools/tool-definition';
import type { SearchAttributeCheck, SearchAttributeRegistrar } from './search-attributes-setup';

/**
 * A worker's options. The connection fields (`address`, `namespace`, `taskQueue`, `tls`, `apiKey`,
 * `env`) are the client's (`AgentClient.connect`): each overrides the environment's setting.
 */
export interface AgentWorkerOptions extends AgentConnectOptions {
  /** Agents to serve (default: the built-in `general` and `reader`, or the configuration file's). */
  agents?: AgentDefinitionInput[];
  /**
   * A YAML or JSON file of agents and MCP servers (default: `AGENT_CONFIG` from `env`). Its agents
   * replace the built-in ones unless it sets `includeBuiltinAgents`; `agents` given here are added.
   */
  agentConfig?: string;
  /** Tools besides the built-in ones. */
  tools?: Tool[];
  workspaceRoot?: string;
  conversations?: ConversationStore;
  lifecycleHandlers?: LifecycleHandler[];
  /**
   * The worker's settings (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, AGENT_MODEL_*, AGENT_SANDBOX,
   * AGENT_APPROVERS_FILE, AGENT_TOOL_ENV, ...; all listed in config/settings-catalog.ts), parsed once
   * into `WorkerSettings` when the worker is built. Default: `process.env`. Tool processes never see it:
   * they get a clean environment (see tools/sandbox/tool-environment.ts).
   */
  env?: NodeJS.ProcessEnv;
  /**
   * Settings already parsed (`npm run worker` parses them once to print its banner); `env` is then
   * not read again. Default: parsed from `env` here, with a warning for each unknown AGENT_* name.
   */
  settings?: WorkerSettings;
  /** Functions agents' guardrails may name (`guardrails: [{ check: { function: "name" } }]`). */
  guardrails?: Record<string, GuardrailFunction>;
  /** Functions agents' `approvalHandler` may name. */
  approvalHandlers?: Record<string, ApprovalHandlerFunction>;
  /**
   * Where the hash-chained audit log is written. Default: where the settings say, as `npm run worker`
   * writes it (AGENT_AUDIT_LOG, or a log of this process's own in AGENT_AUDIT_DIR, ./.agent-audit);
   * `false` (or AGENT_AUDIT_LOG=off) writes none.
   */
  auditLog?: string | false;
  /** A prebuilt workflow bundle (tests and benchmarks share one to start workers quickly). */
  workflowBundle?: WorkerOptions['workflowBundle'];
  workerOptions?: Partial<WorkerOptions>;
  /**
   * OpenTelemetry tracing (see observability/tracing.ts). Default: on when OTEL_EXPORTER_OTLP_ENDPOINT
   * is set. With a prebuilt `workflowBundle`, bundle it with the plugin's workflow interceptors
   * (`TRACING_WORKFLOW_MODULES`), or workflow spans are missing.
   */
  tracing?: Tracing;
  /** Replaces the operator call that registers search attributes (tests stand in a server that refuses). */
  registerSearchAttributes?: SearchAttributeRegistrar;
  /** Credentials for Bedrock, Vertex AI or Foundry instead of each cloud's default chain (see docs/guides/providers.md). */
  modelCredentials?: ModelCredentials;
  /**
   * Worker Versioning: the worker deployment this worker joins and its build id (default:
   * AGENT_DEPLOYMENT_NAME and AGENT_BUILD_ID from the settings; neither: an unversioned worker).
   * `agentRun` is then PINNED to the build that started it (see docs/guides/upgrading.md).
   */
  deployment?: WorkerDeployment;
}

export interface AgentWorker {
  worker: Worker;
  registry: AgentRegistry;
  /** The worker's MCP server connections (none without a configuration that names servers). */
  mcp: McpPool;
  client: Client;
  /** How tool processes run here: `bwrap`, or `none` (unsandboxed; a warning was printed). */
  processes: ProcessRunner;
  /** Whether AgentName/AgentStatus were there, registered, or refused (then a warning was printed). */
  searchAttributes: SearchAttributeCheck;
  /** The settings this worker runs with (print them with `describeWorkerSettings`). */
  settings: WorkerSettings;
  /** The audit log this worker writes (undefined when it writes none). */
  auditLog: string | undefined;
  /**
   * The start banner of this worker: its settings, one `name: value` per line (secrets masked), with
   * what it serves and writes (the audit log, metrics, lifecycle lines) as it really is.
   */
  describe(served?: Partial<ServedSettings>): string[];
  /**
   * Closes the connections and the audit log: after `worker.run()` has returned, or on a worker that
   * never ran (which a SIGINT/SIGTERM also closes); a running worker is shut down first.
   */
  close(): Promise<void>;
}

/** Every key `AgentWorkerOptions` has (the compiler fails when the two drift), for a JavaScript caller's options. */
export const WORKER_OPTION_KEYS = Object.keys({
  ...CONNECT_OPTION_FIELDS,
  agents: true,
  agentConfig: true,
  tools: true,
  workspaceRoot: true,
  conversations: true,
  lifecycleHandlers: true,
  settings: true,
  guardrails: true,
  approvalHandlers: true,
  auditLog: true,
  workflowBundle: true,
  workerOptions: true,
  tracing: true,
  registerSearchAttributes: true,
  modelCredentials: true,
  deployment: true,
} satisfies Record<keyof AgentWorkerOptions, true>);
