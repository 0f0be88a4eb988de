import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { cors } from 'hono/cors';
import { z } from 'zod';

/**
 * The codec endpoint the Temporal Web UI (`--ui-codec-endpoint`, or the UI's "Codec Server" setting)
 * and `temporal --codec-endpoint` call to show sealed payloads decoded: POST /decode and POST /encode
 * with `{ "payloads": [{ "metadata": { key: base64 }, "data": base64 }] }`. The browser calls it from
 * the UI's origin, so CORS allows exactly the origins given; with a token, callers must send
 * `Authorization: Bearer <token>`. Anyone who can call /decode reads every payload, so it listens on
 * loopback unless told otherwise.
 */
export interface CodecServerOptions {
  codec: PayloadCodec;
  /** Web UI origins allowed to call from a browser, e.g. `http://localhost:8233`. */
  origins: string[];
  token?: string;
}

const JsonPayloadSchema = z.object({
  metadata: z.record(z.string(), z.string()).nullish(),
  data: z.string().nullish(),
});
const PayloadsBodySchema = z.object({ payloads: z.array(JsonPayloadSchema) });
type JsonPayload = z.infer<typeof JsonPayloadSchema>;

const fromJson = ({ metadata, data }: JsonPayload): Payload => ({
  metadata: Object.fromEntries(Object.entries(metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  data: data ? Buffer.from(data, 'base64') : undefined,
});
const toJson = ({ metadata, data }: Payload): JsonPayload => ({
  metadata: Object.fromEntries(Object.entries(metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  data: data ? Buffer.from(data).toString('base64') : undefined,
});

export function codecApp(options: CodecServerOptions): Hono {
  const app = new Hono();
  app.use(
    '*',
    cors({
      origin: options.origins,
      allowMethods: ['POST', 'OPTIONS'],
      // The UI sends the namespace; with "pass access token" on, it also sends Authorization.
      allowHeaders: ['Content-Type', 'X-Namespace', 'Authorization'],
      credentials: true,
      maxAge: 600,
    }),
  );
  // After CORS, so a browser's preflight (which never carries the token) is answered.
  if (options.token) for (const path of ['/encode', '/decode']) app.use(path, bearerAuth({ token: options.token }));
  for (const op of ['encode', 'decode'] as const) {
    app.post(`/${op}`, async (c) => {
      const parsed = PayloadsBodySchema.safeParse(await c.req.json().catch(() => undefined));
      if (!parsed.success) return c.json({ error: 'expected {"payloads": [{"metadata": {...}, "data": "..."}]}' }, 400);
      try {
        const payloads = await options.codec[op](parsed.data.payloads.map(fromJson));
        return c.json({ payloads: payloads.map(toJson) });
      } catch (error) {
        // A payload sealed with a key this server lacks: say which, the UI shows the message.
        return c.json({ error: (error as Error).message }, 422);
      }
    });
  }
  app.get('/', (c) => c.text('durable-agent codec server: POST /encode, POST /decode\n'));
  return app;
}

export interface CodecServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Listens on `host:port` (0 picks a free port). */
export function startCodecServer(options: CodecServerOptions & { port: number; host?: string }): Promise<CodecServer> {
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: codecApp(options).fetch, port: options.port, hostname: host }, (info: AddressInfo) => {
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            if ('closeAllConnections' in server) server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
    server.once('error', reject);
  });
}
