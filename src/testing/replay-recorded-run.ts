import { Client, Connection } from '@temporalio/client';
import type { AgentDefinitionInput } from '../contract/agent-definition';
import type { Effort } from '../contract/model-options';
import { parseRecordedRunFile, recordedRunFromFile } from '../client/replay/recorded-run-file';
import { openReplayLab } from '../client/replay/replay-lab';
import type { ReplayReport } from '../client/replay/replay-report';
import type { DecideFlag } from '../client/replay/shadow-session';
import { parseWorkerSettings } from '../runtime/config/worker-settings';
import type { ApprovalHandlerFunction, GuardrailFunction } from '../runtime/guardrails/guardrail-types';
import { fullPrice, loadModelPrices } from '../runtime/model/model-prices';
import type { Tool } from '../runtime/tools/tool-definition';
import { startDevServer, type DevServer } from './temporal-dev-server';

export interface ReplayRecordedRunOptions {
  /** The recorded run: what `agentctl replay --export <workflowId> > run.json` wrote, parsed or as text. */
  history: unknown;
  /** The agents to replay with (the changed ones), as a worker gets them. */
  agents?: AgentDefinitionInput[];
  /** Your tools (the built-in ones are always there). */
  tools?: Tool[];
  /** A YAML or JSON configuration file of agents and MCP servers, instead of or besides `agents`. */
  agentConfig?: string;
  guardrails?: Record<string, GuardrailFunction>;
  approvalHandlers?: Record<string, ApprovalHandlerFunction>;
  /** The shadow's own model id and effort, over the recorded run's. */
  model?: string;
  effort?: Effort;
  /** Ask the real model (ANTHROPIC_* of `env`) from the first request that differs; default: stop there. */
  liveModel?: boolean;
  /** For approvals and questions the record has no answer to (default `stop`). */
  decide?: DecideFlag;
  /** A Temporal frontend (`host:port`); default: a dev server started here with the `temporal` CLI, and stopped. */
  address?: string;
  /** Worker settings as the recording worker had them (AGENT_MODEL_* tiers, limits...); default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Prices over the built-in estimates (USD per million tokens, as in AGENT_MODEL_PRICES_FILE), or `false` for a report without cost. */
  prices?: Record<string, { input: number; output: number; cacheWrite?: number; cacheRead?: number }> | false;
  /** A folder the shadow's read-only calls may read a copy of (default: none, an empty copy). */
  workspace?: string;
}

/**
 * Replays a recorded run (an `agentctl replay --export` file) against your agents and tools, in a
 * shadow: model turns are answered from the record while the requests stay the same, tools with side
 * effects never run. Returns the same report as `agentctl replay --json`, so a test can fail when a
 * change to a prompt, a model or a tool changes what the recorded run would do:
 * `expect(report.diverged).toBe(false)`.
 *
 * A shadow is a real `agentRun` on a Temporal server: the one at `address`, or a dev server this
 * function starts (like startAgentTestEnvironment) and stops.
 */
export async function replayRecordedRun(options: ReplayRecordedRunOptions): Promise<ReplayReport> {
  const file = parseRecordedRunFile(options.history, 'history');
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    let server: DevServer | undefined;
    if (!options.address) {
      server = await startDevServer({ headless: true });
      cleanups.push(() => server!.stop());
    }
    const address = options.address ?? server!.address;
    const connection = await Connection.connect({ address });
    cleanups.push(() => connection.close());
    const client = new Client({ connection, namespace: 'default' });
    const prices = options.prices === false ? null : withPrices(options.prices);
    const lab = await openReplayLab({
      client,
      temporal: { address, namespace: 'default', connection: { address }, dataConverter: {} },
      settings: parseWorkerSettings(options.env ?? process.env),
      prices,
      ...(options.agents ? { agents: options.agents } : {}),
      ...(options.tools ? { tools: options.tools } : {}),
      ...(options.agentConfig ? { agentConfig: options.agentConfig } : {}),
      ...(options.guardrails ? { guardrails: options.guardrails } : {}),
      ...(options.approvalHandlers ? { approvalHandlers: options.approvalHandlers } : {}),
      ...(options.model ? { model: options.model } : {}),
      ...(options.effort ? { effort: options.effort } : {}),
      ...(options.liveModel ? { liveModel: true } : {}),
      ...(options.decide ? { decide: options.decide } : {}),
      ...(options.workspace ? { sourceWorkspace: options.workspace } : {}),
    });
    cleanups.push(() => lab.close());
    const { recorded, bodies } = await recordedRunFromFile(file, 'history');
    return await lab.replayRecorded(recorded, bodies);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

function withPrices(extra: Exclude<ReplayRecordedRunOptions['prices'], false>) {
  const prices = new Map(loadModelPrices(undefined));
  for (const [model, price] of Object.entries(extra ?? {})) prices.set(model, fullPrice(price));
  return prices;
}
