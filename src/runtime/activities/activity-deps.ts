import type { Client } from '@temporalio/client';
import type { AgentRegistry } from '../agents/agent-registry';
import type { AuditChain } from '../audit/audit-chain';
import type { WorkerSettings } from '../config/worker-settings';
import type { ConversationStore } from '../conversation/conversation-store-types';
import type { McpPool } from '../mcp/mcp-pool';
import type { ModelClients } from '../model/providers/open-model-clients';
import type { ProcessRunner } from '../tools/sandbox/process-runner';
import type { JudgeFunctions } from '../guardrails/guardrail-types';
import type { ModelPrices } from '../model/model-prices';
import type { LiveRelay } from '../live/live-relay';

/** What activities need from the worker process; built once in `createActivities`. */
export interface ActivityDeps {
  registry: AgentRegistry;
  workspaceRoot: string;
  conversations: ConversationStore;
  /**
   * The model client of a provider (none given: the worker's). Anthropic's is built lazily, so a worker
   * without ANTHROPIC_API_KEY can still serve everything but model calls; the others were opened at start.
   */
  anthropic: ModelClients;
  /**
   * The worker's settings, parsed once at start (config/worker-settings.ts) from `createAgentWorker`'s
   * `env`: model ids per tier under `model.tiers`, tuning knobs under `limits`.
   */
  settings: Pick<WorkerSettings, 'limits' | 'model'> & { env?: WorkerSettings['env'] };
  /** Used by the preference activities to reach the per-person preferences workflow. */
  temporal: () => Client;
  taskQueue: string;
  /** Starts every tool process: clean environment, sandboxed when the worker can (see tools/sandbox). */
  processes: ProcessRunner;
  /** The approver registry (AGENT_APPROVERS_FILE), name → Ed25519 public key (hex); undefined without one. */
  approverKeys?: Record<string, string>;
  /** The hash-chained audit log (AGENT_AUDIT_LOG), unless it is off. */
  audit?: AuditChain;
  /** The worker's MCP connections, for `describeAgents` (tools hold their own connection). */
  mcp?: McpPool;
  /** The configuration file the agents came from (AGENT_CONFIG), if any. */
  configFile?: string;
  /** Guardrail and approval-handler functions agent definitions may name. */
  judges: JudgeFunctions;
  /** Prices for the run's cost estimate (AGENT_MODEL_PRICES_FILE over the defaults); unset: the built-in defaults. */
  modelPrices?: ModelPrices;
  /** Search attributes the worker found missing on its namespace and could not register: runs do not upsert them. */
  missingSearchAttributes?: readonly string[];
  /** The worker's live relay (AGENT_LIVE_RELAY): model calls push their text to it as it streams. */
  live?: LiveRelay;
}
