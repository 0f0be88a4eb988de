// What the cluster takes from docker-compose.yml: each service's environment and setup script, with
// only addresses, ports and paths changed (there is no Docker network with service names here).
// test/deploy/cluster-alignment.test.ts checks that nothing else is changed.
import * as path from 'node:path';
import { environmentOf, loadComposeFile, REPO_ROOT, scriptOf, type ComposeFile, type ComposeService } from './compose-file';

/** The compose file as `docker compose` would read it with these settings in the environment. */
export function readCompose(env: NodeJS.ProcessEnv, postgres: { user: string; password: string }): ComposeFile {
  return loadComposeFile({ ...env, POSTGRES_USER: postgres.user, POSTGRES_PASSWORD: postgres.password });
}

function service(compose: ComposeFile, name: string): ComposeService {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service "${name}"`);
  return found;
}

/** A one-shot service's shell script (its `sh -euc` command) and environment. */
export function setupScript(compose: ComposeFile, name: 'temporal-schema-setup' | 'temporal-create-namespace') {
  const svc = service(compose, name);
  return { script: scriptOf(svc.command), environment: environmentOf(svc) };
}

/** The host file compose mounts at `target` in a service (the dynamic config, for one). */
export function bindMountSource(compose: ComposeFile, name: string, target: string): string {
  for (const volume of service(compose, name).volumes ?? []) {
    const [source, mountedAt] = String(volume).split(':');
    if (mountedAt === target && source?.startsWith('.')) return path.resolve(REPO_ROOT, source);
  }
  throw new Error(`docker-compose.yml mounts nothing from the repository at ${target} in ${name}`);
}

/** The Temporal server's ports, by the env var the server's config template reads. */
export type ServerPorts = Record<(typeof SERVER_PORT_VARIABLES)[number], number>;
export const SERVER_PORT_VARIABLES = [
  'FRONTEND_GRPC_PORT',
  'FRONTEND_HTTP_PORT',
  'FRONTEND_MEMBERSHIP_PORT',
  'HISTORY_GRPC_PORT',
  'HISTORY_MEMBERSHIP_PORT',
  'MATCHING_GRPC_PORT',
  'MATCHING_MEMBERSHIP_PORT',
  'WORKER_GRPC_PORT',
  'WORKER_MEMBERSHIP_PORT',
] as const;

/**
 * The `temporal` service's environment. The server image runs `temporal-server start` without a
 * config file, so the server renders its built-in config template from these variables; the
 * cluster runs the same binary the same way.
 */
export function serverEnvironment(compose: ComposeFile, at: { bindIp: string; postgres: { host: string; port: number }; ports: ServerPorts }): Record<string, string> {
  const environment = environmentOf(service(compose, 'temporal'));
  const dynamicConfig = environment.DYNAMIC_CONFIG_FILE_PATH!;
  return {
    ...environment,
    POSTGRES_SEEDS: at.postgres.host,
    DB_PORT: String(at.postgres.port),
    BIND_ON_IP: at.bindIp,
    DYNAMIC_CONFIG_FILE_PATH: bindMountSource(compose, 'temporal', dynamicConfig),
    ...Object.fromEntries(Object.entries(at.ports).map(([name, port]) => [name, String(port)])),
  };
}

/** Replaces the host and port of a URL (the compose worker reaches PostgreSQL as `postgresql:5432`). */
function moveUrl(url: string, host: string, port: number): string {
  const moved = new URL(url);
  moved.hostname = host;
  moved.port = String(port);
  return moved.toString();
}

/** The `worker` service's environment, for one simulated host. */
export function workerEnvironment(
  compose: ComposeFile,
  at: { temporalAddress: string; postgres: { host: string; port: number }; workspace: string; auditLog: string; modelBaseUrl?: string },
): Record<string, string> {
  const environment = environmentOf(service(compose, 'worker'));
  return {
    ...environment,
    TEMPORAL_ADDRESS: at.temporalAddress,
    AGENT_CONVERSATION_STORE: moveUrl(environment.AGENT_CONVERSATION_STORE!, at.postgres.host, at.postgres.port),
    AGENT_WORKSPACE: at.workspace,
    AGENT_AUDIT_LOG: at.auditLog,
    ...(at.modelBaseUrl ? { ANTHROPIC_BASE_URL: at.modelBaseUrl } : {}),
  };
}

/** The `temporal-ui` service's settings: which namespace it opens. */
export function uiDefaultNamespace(compose: ComposeFile): string {
  return environmentOf(service(compose, 'temporal-ui')).TEMPORAL_DEFAULT_NAMESPACE || 'default';
}
