// The Temporal server as nodes, each on a simulated host of its own (a network namespace): all four
// services (frontend, history, matching, worker) in one process per node, every node on the one
// PostgreSQL. Each node is configured exactly as the `temporalio/server` image configures itself:
// `temporal-server start` with no config file renders the server's built-in template from compose's
// environment variables. The nodes find each other through the database (each writes its address
// into `cluster_membership`), then gossip (ringpop) on their membership ports; the history shards
// and task queue partitions are spread over the nodes by consistent hashing, and move when a node
// joins or dies.
import * as path from 'node:path';
import { Connection } from '@temporalio/client';
import type { ComposeFile } from './compose-file';
import { serverEnvironment, type ServerPorts } from './compose-services';
import type { TemporalBinaries } from './go-binaries';
import { killNamespace, namespacePids, type HostAddress } from './host-network';
import { startProcess, waitUntilReady, type ManagedProcess } from './processes';

/**
 * The ports the server's template uses when none is set, which compose relies on. Every node has
 * an address of its own, so every node uses these.
 */
export const DEFAULT_PORTS: ServerPorts = {
  FRONTEND_GRPC_PORT: 7233,
  FRONTEND_HTTP_PORT: 7243,
  FRONTEND_MEMBERSHIP_PORT: 6933,
  HISTORY_GRPC_PORT: 7234,
  HISTORY_MEMBERSHIP_PORT: 6934,
  MATCHING_GRPC_PORT: 7235,
  MATCHING_MEMBERSHIP_PORT: 6935,
  WORKER_GRPC_PORT: 7239,
  WORKER_MEMBERSHIP_PORT: 6939,
};

export interface TemporalNode extends HostAddress {
  /** This node's frontend, `ip:port` (workers and clients use the frontend proxy in front of all nodes). */
  frontendAddress: string;
  /** The history service's address, which is how the node names itself as a shard's owner. */
  historyAddress: string;
  /** The node's current process; replaced by `start()`. */
  readonly process: ManagedProcess;
  isUp(): boolean;
  /** Starts the node (again) and waits until its frontend answers. */
  start(): Promise<void>;
  /** SIGKILLs every process on the node's host at once: the node dies, it hands nothing over. */
  kill(): Promise<void>;
  /** SIGTERM: the node leaves the membership ring and shuts down. */
  stop(): Promise<void>;
}

export function createTemporalNode(
  host: HostAddress,
  options: { binaries: TemporalBinaries; compose: ComposeFile; postgres: { host: string; port: number }; logDir: string },
): TemporalNode {
  const environment = serverEnvironment(options.compose, { bindIp: host.address, postgres: options.postgres, ports: DEFAULT_PORTS });
  const frontendAddress = `${host.address}:${DEFAULT_PORTS.FRONTEND_GRPC_PORT}`;
  let current: ManagedProcess | undefined;

  const node: TemporalNode = {
    ...host,
    frontendAddress,
    historyAddress: `${host.address}:${DEFAULT_PORTS.HISTORY_GRPC_PORT}`,
    get process() {
      if (!current) throw new Error(`the Temporal node on ${host.hostname} was never started`);
      return current;
    },
    isUp: () => current?.isRunning() ?? false,
    async start() {
      const started = startProcess(`Temporal server on ${host.hostname}`, 'ip', ['netns', 'exec', host.namespace, options.binaries.server, 'start'], {
        // Only what the container would have: the server reads its whole configuration from here.
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...environment },
        cwd: options.logDir,
        logFile: path.join(options.logDir, `temporal-${host.hostname}.log`),
      });
      current = started;
      try {
        await waitUntilReady([started], `the Temporal frontend at ${frontendAddress}`, async () => {
          // connect() calls GetSystemInfo, so a resolved connection means the frontend answers.
          const connection = await Connection.connect({ address: frontendAddress, connectTimeout: 2_000 });
          await connection.close();
          return true;
        }, 120_000);
      } catch (error) {
        await started.stop();
        throw error;
      }
    },
    async kill() {
      killNamespace(host.namespace);
      await current?.exited;
      while (namespacePids(host.namespace).length > 0) {
        killNamespace(host.namespace);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      await current?.stop(30_000);
      killNamespace(host.namespace);
    },
  };
  return node;
}
