import { loadClientConnectConfig } from '@temporalio/envconfig';
import type { NativeConnectionOptions } from '@temporalio/worker';
import { DurableAgentError } from '../../contract/durable-agent-error';

/**
 * How to reach Temporal, read by `@temporalio/envconfig` exactly as the Temporal CLI and the other
 * SDKs read it: the profile named by TEMPORAL_PROFILE (default "default") in the TOML file named by
 * TEMPORAL_CONFIG_FILE (default ~/.config/temporalio/temporal.toml, if it exists), overridden by
 * TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS*, TEMPORAL_GRPC_META_*. One
 * module, so the worker, agentctl, `npm start` and the benchmarks cannot disagree about where the
 * server is.
 */
export interface TemporalConnection {
  address: string;
  namespace: string;
  /** Options for both `Connection.connect` (client) and `NativeConnection.connect` (worker). */
  options: Pick<NativeConnectionOptions, 'address' | 'tls' | 'apiKey' | 'metadata'> & { address: string };
  /** Where the settings came from, for messages: `profile "prod" in /path/temporal.toml`, or `environment`. */
  source: string;
}

export const DEFAULT_ADDRESS = 'localhost:7233';
export const DEFAULT_NAMESPACE = 'default';

/** The config file or profile is unusable (missing profile, bad TOML, unreadable certificate). */
export class TemporalConfigError extends DurableAgentError {
  override readonly name = 'TemporalConfigError';
  readonly code = 'TEMPORAL_CONFIG_INVALID';
  readonly retryable = false;
}

/**
 * Empty variables count as unset, as they always have here (`TEMPORAL_ADDRESS= npm start`); the
 * envconfig loader would otherwise take an empty address literally.
 */
function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && value !== '') out[name] = value;
  return out;
}

export function temporalConnection(env: NodeJS.ProcessEnv): TemporalConnection {
  const vars = definedOnly(env);
  let loaded: ReturnType<typeof loadClientConnectConfig>;
  try {
    loaded = loadClientConnectConfig({ overrideEnvVars: vars });
  } catch (error) {
    const file = vars.TEMPORAL_CONFIG_FILE ? ` (TEMPORAL_CONFIG_FILE=${vars.TEMPORAL_CONFIG_FILE})` : '';
    throw new TemporalConfigError(`Cannot read the Temporal connection profile${file}: ${(error as Error).message}`);
  }
  const { address, tls, apiKey, metadata } = loaded.connectionOptions;
  const profile = vars.TEMPORAL_PROFILE;
  const source = vars.TEMPORAL_CONFIG_FILE || profile ? `profile "${profile ?? 'default'}"${vars.TEMPORAL_CONFIG_FILE ? ` in ${vars.TEMPORAL_CONFIG_FILE}` : ''}` : 'environment';
  const resolved = address ?? DEFAULT_ADDRESS;
  return {
    address: resolved,
    namespace: loaded.namespace ?? DEFAULT_NAMESPACE,
    options: { address: resolved, tls, apiKey, metadata },
    source,
  };
}
