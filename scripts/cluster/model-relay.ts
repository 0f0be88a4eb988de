// The simulated hosts have no route to the internet (no NAT), so with a real API key the cluster
// relays model calls: the hosts call this relay on the cluster network, and it forwards each
// request, streamed both ways, from the machine's own network to the real API.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ModelEndpoint } from './cluster';

export function startModelRelay(options: { host: string; upstream: string }): Promise<ModelEndpoint> {
  const upstream = new URL(options.upstream);
  const server = http.createServer((req, res) => {
    // Keep the upstream's path prefix (a gateway may serve the API under one).
    const target = new URL(upstream.pathname.replace(/\/$/, '') + (req.url ?? '/'), upstream);
    const send = target.protocol === 'https:' ? https.request : http.request;
    const forward = send(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', (error) => {
      if (res.headersSent) return res.destroy(error);
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `cluster model relay: ${error.message}` } }));
    });
    req.pipe(forward);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host, () => {
      resolve({
        baseUrl: `http://${options.host}:${(server.address() as AddressInfo).port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
