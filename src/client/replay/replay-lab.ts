import type { Client } from '@temporalio/client';
import type { AgentDefinitionInput } from '../../contract/agent-definition';
import type { TemporalSettings } from '../../runtime/config/worker-config';
import type { WorkerSettings } from '../../runtime/config/worker-settings';
import type { ApprovalHandlerFunction, GuardrailFunction } from '../../runtime/guardrails/guardrail-types';
import type { Tool } from '../../runtime/tools/tool-definition';
import type { RecordedRun } from './recorded-run';
import { loadRecordedRun } from './recorded-source';
import type { ReplayReport } from './replay-report';
import { replayRecordedRunIn, type ReplayOptions } from './replay-run';
import { startShadowWorker } from './shadow-worker';
import type { StoredBodies } from './stored-bodies';

export interface ReplayLabOptions extends ReplayOptions {
  client: Client;
  temporal: Pick<TemporalSettings, 'address' | 'namespace' | 'connection' | 'dataConverter'>;
  /** The worker settings the recorded runs were made with (model tiers, limits, sandbox, provider, workspace). */
  settings: WorkerSettings;
  /** The agents to replay with: a configuration file's (`--agent-file`), and/or definitions and tools in code. */
  agentConfig?: string;
  agents?: AgentDefinitionInput[];
  tools?: Tool[];
  guardrails?: Record<string, GuardrailFunction>;
  approvalHandlers?: Record<string, ApprovalHandlerFunction>;
}

/** A replay lab: one shadow worker, serving as many replays as it is asked for (one at a time or several at once). */
export interface ReplayLab {
  /** The shadow worker's task queue (nothing but this lab's shadows runs there). */
  taskQueue: string;
  /** Reads the run from the server and replays it. */
  replay(workflowId: string): Promise<ReplayReport>;
  /** Replays a run already read (an export file's, with the bodies the file carries). */
  replayRecorded(recorded: RecordedRun, bodies?: StoredBodies): Promise<ReplayReport>;
  close(): Promise<void>;
}

/**
 * Opens a replay lab: checks and loads the agents to replay with and starts the shadow worker, so a
 * bad agent file is refused before any run is read. Close it when done: it stops the worker and its
 * MCP servers.
 */
export async function openReplayLab(options: ReplayLabOptions): Promise<ReplayLab> {
  const worker = await startShadowWorker({
    client: options.client,
    temporal: options.temporal,
    settings: options.settings,
    ...(options.agentConfig ? { agentConfig: options.agentConfig } : {}),
    ...(options.agents ? { agents: options.agents } : {}),
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.guardrails ? { guardrails: options.guardrails } : {}),
    ...(options.approvalHandlers ? { approvalHandlers: options.approvalHandlers } : {}),
    liveModel: options.liveModel === true,
    ...(options.sourceWorkspace ? { sourceWorkspace: options.sourceWorkspace } : {}),
  });
  const replayOptions: ReplayOptions = {
    prices: options.prices,
    ...(options.liveModel ? { liveModel: true } : {}),
    ...(options.decide ? { decide: options.decide } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.effort ? { effort: options.effort } : {}),
    ...(options.sourceWorkspace ? { sourceWorkspace: options.sourceWorkspace } : {}),
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
    ...(options.bodies ? { bodies: options.bodies } : {}),
  };
  const replayRecorded = (recorded: RecordedRun, bodies?: StoredBodies) => replayRecordedRunIn(options.client, worker, recorded, bodies ? { ...replayOptions, bodies } : replayOptions);
  return {
    taskQueue: worker.taskQueue,
    replayRecorded,
    replay: async (workflowId) => replayRecorded(await loadRecordedRun(options.client, workflowId, options.bodies && ((prefix) => options.bodies!.conversation(prefix)))),
    close: () => worker.close(),
  };
}
