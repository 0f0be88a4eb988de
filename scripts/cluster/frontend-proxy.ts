// One address for several Temporal frontends. The SDK's clients and workers take a single address
// (a Connection or NativeConnection has no list of endpoints), so a multi-node server is reached
// through a load balancer; this is the cluster's: a TCP proxy on the bridge that hands each new
// connection to the next frontend in turn and skips one that refuses. gRPC runs over long-lived
// HTTP/2 connections, so when a node dies its connections are cut, the SDK reconnects, and the new
// connection lands on a frontend that is alive. In production an L4 load balancer with health
// checks (or a DNS name over the frontends) does the same.
import net from 'node:net';

export interface FrontendProxyStats {
  /** Connections handed to each frontend, by its address. */
  connections: Record<string, number>;
  /** Connection attempts a frontend refused (or let time out), each followed by a try at the next one. */
  failovers: number;
  /** Clients that found no frontend alive, and were disconnected. */
  unserved: number;
}

export interface FrontendProxy {
  /** `ip:port`: what workers and clients use as TEMPORAL_ADDRESS. */
  address: string;
  stats(): FrontendProxyStats;
  close(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 1_000;

function connectTo(address: string): Promise<net.Socket> {
  const separator = address.lastIndexOf(':');
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address.slice(0, separator), port: Number(address.slice(separator + 1)) });
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy(new Error(`no answer from ${address} within ${CONNECT_TIMEOUT_MS} ms`)));
    socket.once('connect', () => {
      socket.setTimeout(0);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

export function startFrontendProxy(options: { host: string; port: number; frontends: string[] }): Promise<FrontendProxy> {
  const stats: FrontendProxyStats = { connections: Object.fromEntries(options.frontends.map((f) => [f, 0])), failovers: 0, unserved: 0 };
  const sockets = new Set<net.Socket>();
  let next = 0;

  /** The next frontend in turn that accepts a connection, or undefined when none does. */
  const upstream = async (): Promise<net.Socket | undefined> => {
    const start = next++;
    for (let i = 0; i < options.frontends.length; i++) {
      const frontend = options.frontends[(start + i) % options.frontends.length]!;
      try {
        const socket = await connectTo(frontend);
        stats.connections[frontend]! += 1;
        return socket;
      } catch {
        stats.failovers += 1;
      }
    }
    return undefined;
  };

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // gRPC sends many small frames: Nagle's algorithm would hold them back.
    socket.setNoDelay(true);
  };

  const server = net.createServer((client) => {
    track(client);
    // Until the frontend is connected, what the client sends waits in its socket (paused streams buffer).
    client.on('error', () => client.destroy());
    void upstream().then((frontend) => {
      if (!frontend) {
        stats.unserved += 1;
        return client.destroy();
      }
      track(frontend);
      if (client.destroyed) return frontend.destroy();
      // Either side going away ends the other: a cut frontend connection must reach the client,
      // which then reconnects (through here, to a frontend that is alive).
      frontend.on('error', () => frontend.destroy());
      frontend.once('close', () => client.destroy());
      client.once('close', () => frontend.destroy());
      client.pipe(frontend);
      frontend.pipe(client);
    });
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      resolve({
        address: `${options.host}:${options.port}`,
        stats: () => structuredClone(stats),
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
