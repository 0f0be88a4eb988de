// The Temporal server (all four services in one process), on PostgreSQL, configured exactly as the
// `temporalio/server` image configures it: `temporal-server start` with no config file renders the
// server's built-in template from compose's environment variables.
import * as path from 'node:path';
import { Connection } from '@temporalio/client';
import type { ComposeFile } from './compose-file';
import { SERVER_PORT_VARIABLES, serverEnvironment, type ServerPorts } from './compose-services';
import type { TemporalBinaries } from './go-binaries';
import { preferredPort } from './ports';
import { startProcess, waitUntilReady, type ManagedProcess } from './processes';

/** The ports the server's template uses when none is set, which compose relies on. */
const DEFAULT_PORTS: ServerPorts = {
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

export interface TemporalServer {
  /** The frontend, `ip:port`: what workers and clients connect to. */
  address: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

/** The default ports where they are free on `ip`, others where not (a server listening on 0.0.0.0 takes them everywhere). */
async function choosePorts(ip: string): Promise<ServerPorts> {
  const ports = { ...DEFAULT_PORTS };
  for (const name of SERVER_PORT_VARIABLES) ports[name] = await preferredPort(ip, DEFAULT_PORTS[name]);
  return ports;
}

export async function startTemporalServer(options: {
  binaries: TemporalBinaries;
  compose: ComposeFile;
  bindIp: string;
  postgres: { host: string; port: number };
  logDir: string;
}): Promise<TemporalServer> {
  const ports = await choosePorts(options.bindIp);
  const environment = serverEnvironment(options.compose, { bindIp: options.bindIp, postgres: options.postgres, ports });
  const server = startProcess('Temporal server', options.binaries.server, ['start'], {
    // Only what the container would have: the server reads its whole configuration from here.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...environment },
    cwd: options.logDir,
    logFile: path.join(options.logDir, 'temporal-server.log'),
  });
  const address = `${options.bindIp}:${ports.FRONTEND_GRPC_PORT}`;
  try {
    await waitUntilReady([server], `the Temporal frontend at ${address}`, async () => {
      // connect() calls GetSystemInfo, so a resolved connection means the frontend answers.
      const connection = await Connection.connect({ address, connectTimeout: 2_000 });
      await connection.close();
      return true;
    }, 120_000);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { address, process: server, stop: () => server.stop(30_000) };
}
