// The whole self-hosted topology on one machine: PostgreSQL, the Temporal server on it as two nodes
// behind one frontend address, the Web UI, and agent workers on simulated hosts. Shared by
// `npm run cluster` and `npm run test:cluster`.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import * as path from 'node:path';
import type { ComposeFile } from './compose-file';
import { readCompose, uiDefaultNamespace, workerEnvironment } from './compose-services';
import { ensureTemporalBinaries } from './go-binaries';
import { startFrontendProxy, type FrontendProxy } from './frontend-proxy';
import { createNetwork, type ClusterNetwork } from './host-network';
import { preferredPort } from './ports';
import { startPostgres, type PrivatePostgres } from './postgres';
import { adminToolsPath, runSetupScript } from './setup-scripts';
import { describeShards, settleShards } from './shard-owners';
import { endStaleProcesses, forgetProcesses, rememberProcess } from './stale-processes';
import { createTemporalNode, DEFAULT_PORTS, type TemporalNode } from './temporal-server';
import { startWebUi, type WebUi } from './web-ui';
import { buildWorker, createWorkerHost, type WorkerHost } from './worker-hosts';

/** Where the hosts find a model: a real API behind a relay, the demo model, or a test's fake. */
export interface ModelEndpoint {
  baseUrl: string;
  /** Given to the workers as ANTHROPIC_API_KEY when the environment has none. */
  apiKey?: string;
  close(): Promise<void>;
}

export interface ClusterOptions {
  /** Prefix of the namespaces and interfaces (default `da`); two clusters need two names and subnets. */
  name?: string;
  /** First three octets of the private /24 (default `10.213.0`). */
  subnet?: string;
  hosts?: number;
  /** Temporal server nodes, each on a host of its own (default 2). */
  serverNodes?: number;
  /** Start the Web UI (default true). */
  ui?: boolean;
  /** Log files go here (default: inside the run folder, deleted on stop). */
  logDir?: string;
  /** Where the compose file's `${VARS}` come from (ANTHROPIC_API_KEY, TEMPORAL_NAMESPACE...). Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Starts the model endpoint once the network exists, on an address the hosts reach. */
  model: (gateway: string) => Promise<ModelEndpoint>;
  log?: (line: string) => void;
}

export interface Cluster {
  /**
   * The frontend proxy in front of every node's frontend, on the cluster network (reachable from
   * this machine and from the hosts): the one address workers and clients are given.
   */
  temporalAddress: string;
  namespace: string;
  taskQueue: string;
  /** The conversation store's URL, as the hosts use it. */
  conversationStoreUrl: string;
  network: ClusterNetwork;
  postgres: PrivatePostgres;
  /** The Temporal server's nodes; every one runs all four services. */
  servers: TemporalNode[];
  frontend: FrontendProxy;
  /** The `temporal` database, where the shards' owners and the membership are recorded. */
  temporalDatabaseUrl: string;
  hosts: WorkerHost[];
  model: ModelEndpoint;
  ui?: WebUi;
  /** The folder shared by every host as AGENT_WORKSPACE, as compose shares its workspace volume. */
  workspace: string;
  logDir: string;
  /** Stops everything in order (UI, workers, model, server, database) and removes the network. */
  stop(): Promise<void>;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const log = options.log ?? (() => undefined);
  const env = options.env ?? process.env;
  const name = options.name ?? 'da';
  const binaries = await ensureTemporalBinaries(log);
  await endStaleProcesses(name, log);
  const runDir = await mkdtemp(path.join(os.tmpdir(), 'durable-agent-cluster-'));
  const logDir = options.logDir ?? path.join(runDir, 'logs');
  await mkdir(logDir, { recursive: true });
  const stops: (() => Promise<void> | void)[] = [() => forgetProcesses(name), () => rm(runDir, { recursive: true, force: true })];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await Promise.resolve(step()).catch((error: unknown) => log(`while stopping: ${String(error)}`));
  };

  try {
    const network = createNetwork({ name, subnet: options.subnet ?? '10.213.0', hosts: options.hosts ?? 3, serverHosts: options.serverNodes ?? 2 });
    stops.push(() => network.remove());
    log(`Network: bridge ${network.gateway}, hosts ${network.hosts.map((h) => `${h.hostname}=${h.address}`).join(', ')}`);

    const postgres = await startPostgres({
      host: network.gateway,
      port: await preferredPort(network.gateway, 5432),
      logDir,
      // A restarted PostgreSQL is a new process: noted too, so a killed drill leaves none behind.
      onStart: (pid) => rememberProcess(name, pid),
    });
    stops.push(() => postgres.stop());
    log(`PostgreSQL ${postgres.host}:${postgres.port}`);

    const model = await options.model(network.gateway);
    stops.push(() => model.close());
    const compose: ComposeFile = readCompose({ ...env, ANTHROPIC_API_KEY: env.ANTHROPIC_API_KEY || model.apiKey }, postgres);
    const toolsDir = await adminToolsPath(path.join(runDir, 'admin-tools'), binaries);
    await runSetupScript(compose, 'temporal-schema-setup', {
      toolsDir,
      overrides: { SQL_HOST: postgres.host, SQL_PORT: String(postgres.port), TEMPORAL_SCHEMA_DIR: path.join(binaries.serverModuleDir, 'schema', 'postgresql', 'v12') },
      logFile: path.join(logDir, 'schema-setup.log'),
    });
    log('Schemas set up (docker-compose.yml temporal-schema-setup)');

    // One node at a time: the first creates the cluster's metadata in the database, the others join it.
    const servers: TemporalNode[] = [];
    stops.push(() => Promise.all(servers.map((node) => node.stop())).then(() => undefined));
    for (const host of network.serverHosts) {
      const node = createTemporalNode(host, { binaries, compose, postgres, logDir });
      servers.push(node);
      await node.start();
      log(`Temporal server node on ${host.hostname} (${node.frontendAddress})`);
    }
    const frontend = await startFrontendProxy({
      host: network.gateway,
      port: await preferredPort(network.gateway, DEFAULT_PORTS.FRONTEND_GRPC_PORT),
      frontends: servers.map((node) => node.frontendAddress),
    });
    stops.push(() => frontend.close());
    log(`Frontend proxy ${frontend.address} -> ${servers.map((node) => node.frontendAddress).join(', ')}`);
    const temporalDatabaseUrl = postgres.url('temporal');
    const shards = await settleShards(temporalDatabaseUrl, servers.map((node) => node.historyAddress), servers.map((node) => node.process));
    log(`History shards by node: ${describeShards(shards, (owner) => servers.find((node) => node.historyAddress === owner)?.hostname ?? owner)}`);
    await runSetupScript(compose, 'temporal-create-namespace', {
      toolsDir,
      overrides: { TEMPORAL_ADDRESS: frontend.address },
      logFile: path.join(logDir, 'create-namespace.log'),
    });

    buildWorker();
    log('Worker compiled into dist/ (the image\'s build stage)');
    const workspace = path.join(runDir, 'workspace');
    await mkdir(workspace, { recursive: true });
    const hosts = await Promise.all(
      network.hosts.map(async (host) => {
        const hostDir = path.join(runDir, 'hosts', host.hostname);
        await mkdir(hostDir, { recursive: true });
        const workerEnv = workerEnvironment(compose, { temporalAddress: frontend.address, postgres, workspace, auditLog: path.join(hostDir, 'audit.log'), modelBaseUrl: model.baseUrl });
        return createWorkerHost(host, { env: workerEnv, logDir });
      }),
    );
    stops.push(() => Promise.all(hosts.map((host) => host.stop())).then(() => undefined));
    // One at a time: each start bundles the workflow code, which on 2 cores is slower in parallel.
    for (const host of hosts) {
      await host.start();
      log(`Worker polling on ${host.hostname} (${host.address})`);
    }

    let ui: WebUi | undefined;
    if (options.ui ?? true) {
      ui = await startWebUi({ binary: binaries.ui, temporalAddress: frontend.address, namespace: uiDefaultNamespace(compose), runDir, logDir });
      stops.push(() => ui!.stop());
      await rememberProcess(name, ui.process.pid);
    }

    const workerEnv = workerEnvironment(compose, { temporalAddress: frontend.address, postgres, workspace, auditLog: '', modelBaseUrl: model.baseUrl });
    return {
      temporalAddress: frontend.address,
      namespace: workerEnv.TEMPORAL_NAMESPACE!,
      taskQueue: workerEnv.TEMPORAL_TASK_QUEUE!,
      conversationStoreUrl: workerEnv.AGENT_CONVERSATION_STORE!,
      network,
      postgres,
      servers,
      frontend,
      temporalDatabaseUrl,
      hosts,
      model,
      ui,
      workspace,
      logDir,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
