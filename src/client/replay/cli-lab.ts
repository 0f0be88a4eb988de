import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@temporalio/client';
import type { Effort } from '../../contract/model-options';
import type { TemporalSettings } from '../../runtime/config/worker-config';
import { parseWorkerSettings, WorkerSettingsError, type WorkerSettings } from '../../runtime/config/worker-settings';
import { conversationStoreFromEnv } from '../../runtime/conversation/conversation-store';
import { redactUrl } from '../../runtime/conversation/postgres-conversation-store';
import { loadModelPrices, ModelPricesError } from '../../runtime/model/model-prices';
import { UsageError } from '../errors';
import { openReplayLab, type ReplayLab } from './replay-lab';
import { ReplayAgentsError } from './replay-errors';
import type { DecideFlag } from './shadow-session';
import { storeBodies, type StoredBodies } from './stored-bodies';

/** The flags every form of `agentctl replay` shares. */
export interface ReplayFlags {
  agentFile?: string;
  model?: string;
  effort?: Effort;
  liveModel: boolean;
  decide: DecideFlag;
  noCost: boolean;
}

/**
 * The worker's settings, as the worker that made the runs read them: the shadow is a worker, and the
 * model ids of the tiers, the limits, the sandbox and the workspace must be the recorded run's.
 */
export function replaySettings(env: NodeJS.ProcessEnv): WorkerSettings {
  try {
    return parseWorkerSettings(env);
  } catch (error) {
    if (error instanceof WorkerSettingsError) throw new ReplayAgentsError(`agentctl replay reads the worker's settings (the shadow is a worker), and they are wrong, so nothing was replayed:\n${error.problems.map((p) => `- ${p}`).join('\n')}`);
    throw error;
  }
}

/**
 * Where agentctl finds what a history lacks: the conversation store of AGENT_CONVERSATION_STORE when
 * it is one the CLI can reach (a shared folder, PostgreSQL); a worker's memory store is its own.
 */
export function cliBodies(settings: WorkerSettings): { bodies?: StoredBodies; close(): Promise<void> } {
  const value = settings.conversationStore;
  if (value === 'memory') return { close: async () => undefined };
  const store = conversationStoreFromEnv(value);
  return { bodies: storeBodies(store, `AGENT_CONVERSATION_STORE=${redactUrl(value)}`), close: async () => void (await store.close?.()) };
}

export interface CliLab {
  lab: ReplayLab;
  bodies?: StoredBodies;
  close(): Promise<void>;
}

/** Opens the replay lab `agentctl replay` uses: the worker's settings from `env`, its agents (or --agent-file's), its prices. */
export async function openCliLab(client: Client, temporal: TemporalSettings, env: NodeJS.ProcessEnv, pricesFile: string | undefined, flags: ReplayFlags): Promise<CliLab> {
  const settings = replaySettings(env);
  let prices = null;
  if (!flags.noCost) {
    try {
      prices = loadModelPrices(pricesFile);
    } catch (error) {
      if (error instanceof ModelPricesError) throw new UsageError(error.message);
      throw error;
    }
  }
  const agentConfig = flags.agentFile ?? settings.workspace.configFile;
  const store = cliBodies(settings);
  const sourceWorkspace = resolveWorkspaceRootIfAny(settings.workspace.root);
  try {
    const lab = await openReplayLab({
      client,
      temporal,
      settings,
      prices,
      ...(agentConfig ? { agentConfig } : {}),
      ...(sourceWorkspace ? { sourceWorkspace } : {}),
      ...(store.bodies ? { bodies: store.bodies } : {}),
      liveModel: flags.liveModel,
      decide: flags.decide,
      ...(flags.model ? { model: flags.model } : {}),
      ...(flags.effort ? { effort: flags.effort } : {}),
    });
    return { lab, ...(store.bodies ? { bodies: store.bodies } : {}), close: async () => { await lab.close(); await store.close(); } };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/**
 * The workspace root, symlinks resolved, when it exists; never created (a CLI on another machine than
 * the worker has none: the shadow's read-only calls then find an empty copy).
 */
function resolveWorkspaceRootIfAny(root: string): string | undefined {
  try {
    return realpathSync(path.resolve(root));
  } catch {
    return undefined;
  }
}
