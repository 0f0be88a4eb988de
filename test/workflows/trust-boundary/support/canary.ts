// A TCP listener on loopback that counts who reached it: the canary of the trust-boundary tests. A
// hidden program that gets the network connects here; a contained one cannot.
import net from 'node:net';

export interface Canary {
  port: number;
  /** Connections accepted since the last reset. */
  connections(): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startCanary(): Promise<Canary> {
  let count = 0;
  const server = net.createServer((socket) => {
    count += 1;
    // A probe that closes first resets the connection: the client's business, not the test's.
    socket.on('error', () => undefined);
    socket.end('canary\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => count,
    reset: () => {
      count = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
