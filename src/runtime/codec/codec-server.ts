import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import { z } from 'zod';
import { CodecServerConfigError } from './codec-errors';

/**
 * The codec endpoint the Temporal Web UI (`--ui-codec-endpoint`, or the UI's "Codec Server" setting)
 * and `temporal --codec-endpoint` call to show sealed payloads decoded: POST /decode and POST /encode
 * with `{ "payloads": [{ "metadata": { key: base64 }, "data": base64 }] }`. The browser calls it from
 * the UI's origin, so CORS allows exactly the origins given.
 *
 * Anyone who can call /decode reads every payload, so three guards stand in front of it:
 * - a token, always: `Authorization: Bearer <token>`, or the token as the first path segment
 *   (`/<token>/decode`). The dev server's Web UI cannot send a header of ours (its "pass access token"
 *   option forwards an OIDC token the dev server does not have), so `npm start` gives the UI the
 *   endpoint `http://127.0.0.1:<port>/<token>` and the UI appends `/decode` to it;
 * - a Host check: only loopback names and the configured host, so a page on a DNS-rebound name that
 *   resolves to this machine is refused before the token is even looked at;
 * - CORS only for the configured Web UI origins, so another site's page cannot read an answer.
 */
export interface CodecServerOptions {
  codec: PayloadCodec;
  /** Web UI origins allowed to call from a browser, e.g. `http://localhost:8233`. */
  origins: string[];
  /** Required: a codec server without one would decode for any local process or rebound page. */
  token: string;
}

/** The shortest token accepted: 16 characters, so a guess is not a matter of minutes. */
export const MIN_CODEC_TOKEN_LENGTH = 16;

/** A token for a codec server started without one named (`npm start`): 32 random bytes. */
export function newCodecToken(): string {
  return randomBytes(32).toString('base64url');
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** The Host headers the server answers to: loopback names and the host it was told to listen on, on its port. */
export function codecAllowedHosts(host: string, port: number): Set<string> {
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const names = new Set([...LOOPBACK_NAMES, shown.toLowerCase()]);
  // A server bound to every address is still reached by the names above; "0.0.0.0" is never a Host.
  names.delete('0.0.0.0');
  names.delete('[::]');
  return new Set([...names].map((name) => `${name}:${port}`));
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

/** Constant-time comparison; hashing first makes the lengths equal. */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}

function assertToken(token: string | undefined): void {
  if (!token || token.length < MIN_CODEC_TOKEN_LENGTH) {
    throw new CodecServerConfigError(
      `The codec server needs a token of at least ${MIN_CODEC_TOKEN_LENGTH} characters (--token or AGENT_CODEC_TOKEN): anyone who can call it reads every payload.`,
    );
  }
}

export function codecApp(options: CodecServerOptions & { allowedHosts?: ReadonlySet<string> }): Hono {
  assertToken(options.token);
  const app = new Hono();
  // First, before CORS: a rebound name gets no CORS headers and no answer at all.
  const allowed = options.allowedHosts;
  if (allowed) {
    app.use('*', async (c, next) => {
      if (!allowed.has((c.req.header('host') ?? '').toLowerCase())) return c.text('Unknown host: the codec server answers only to its own names', 421);
      await next();
    });
  }
  // A browser names the page that calls; a page of any other origin is refused outright (not only left
  // without CORS headers), so even a request whose answer it cannot read never runs the codec for it.
  const origins = new Set(options.origins);
  app.use('*', async (c, next) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && !origins.has(origin)) return c.json({ error: `Origin ${origin} may not call the codec server (allowed: ${options.origins.join(', ')})` }, 403);
    await next();
  });
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
  for (const op of ['encode', 'decode'] as const) {
    const handle = async (c: Context) => {
      // Checked here, after CORS, so a browser's preflight (which never carries the token) is answered.
      const given = c.req.param('token') ?? bearerToken(c.req.header('authorization'));
      if (given === undefined || !sameSecret(given, options.token)) return unauthorized(c);
      const parsed = PayloadsBodySchema.safeParse(await c.req.json().catch(() => undefined));
      if (!parsed.success) return c.json({ error: 'expected {"payloads": [{"metadata": {...}, "data": "..."}]}' }, 400);
      try {
        const payloads = await options.codec[op](parsed.data.payloads.map(fromJson));
        return c.json({ payloads: payloads.map(toJson) });
      } catch (error) {
        // A payload sealed with a key this server lacks: say which, the UI shows the message.
        return c.json({ error: (error as Error).message }, 422);
      }
    };
    app.post(`/:token{[^/]+}/${op}`, handle);
    app.post(`/${op}`, handle);
  }
  app.get('/', (c) => c.text('durable-agent codec server: POST /encode, POST /decode\n'));
  return app;
}

export interface CodecServer {
  url: string;
  /** The endpoint for a Web UI that cannot send the token in a header: the URL with the token as its path. */
  uiEndpoint: string;
  port: number;
  close(): Promise<void>;
}

const unauthorized = (c: Context) =>
  c.json({ error: 'The codec server needs its token: send "Authorization: Bearer <token>", or call /<token>/decode.' }, 401, { 'www-authenticate': 'Bearer' });

/** Listens on `host:port` (0 picks a free port); the Host check follows the port actually bound. */
export async function startCodecServer(options: CodecServerOptions & { port: number; host?: string }): Promise<CodecServer> {
  const host = options.host ?? '127.0.0.1';
  assertToken(options.token);
  return await new Promise((resolve, reject) => {
    let app: Hono | undefined;
    const server = serve({ fetch: (request) => (app ? app.fetch(request) : new Response('Starting', { status: 503 })), port: options.port, hostname: host }, (info: AddressInfo) => {
      app = codecApp({ ...options, allowedHosts: codecAllowedHosts(host, info.port) });
      const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
      const url = `http://${shown}:${info.port}`;
      resolve({
        url,
        uiEndpoint: `${url}/${encodeURIComponent(options.token)}`,
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
