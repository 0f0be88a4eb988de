// Local fakes of Amazon Bedrock's, Google Vertex AI's and Microsoft Foundry's Claude endpoints, in
// front of the fake Messages API (fake-anthropic.ts), which scripts the answers.
//
// The platform SDKs (@anthropic-ai/bedrock-sdk, vertex-sdk, foundry-sdk) are pointed at this server
// by their base URL, so their own request rewriting, signing and stream decoding run as in
// production. Each request is recorded as the platform received it (path, model in the path,
// headers, body), then turned back into a Messages request for the scripted fake. Bedrock streams
// as AWS does, in binary event-stream frames carrying the Messages API's events.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { FakeAnthropic } from './fake-anthropic';

export type Platform = 'bedrock' | 'vertex' | 'foundry';

export interface PlatformRequest {
  platform: Platform;
  path: string;
  /** The model as the platform got it: in the path (Bedrock, Vertex) or the body (Foundry). */
  model: string;
  stream: boolean;
  headers: http.IncomingHttpHeaders;
  /** The body exactly as the platform got it. */
  body: Record<string, unknown>;
}

const BEDROCK = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/;
const VERTEX = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):(rawPredict|streamRawPredict)$/;
const FOUNDRY = '/anthropic/v1/messages';

function recognise(path: string, body: Record<string, unknown>): Omit<PlatformRequest, 'headers' | 'body'> | undefined {
  const bedrock = BEDROCK.exec(path);
  if (bedrock) return { platform: 'bedrock', path, model: decodeURIComponent(bedrock[1]!), stream: bedrock[2] === 'invoke-with-response-stream' };
  const vertex = VERTEX.exec(path);
  if (vertex) return { platform: 'vertex', path, model: decodeURIComponent(vertex[3]!), stream: vertex[4] === 'streamRawPredict' };
  if (path === FOUNDRY) return { platform: 'foundry', path, model: String(body.model), stream: body.stream === true };
  return undefined;
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** One SSE event of the Messages API as the chunk frame Bedrock sends for it. */
function bedrockChunk(data: string): Uint8Array {
  const payload = JSON.stringify({ bytes: Buffer.from(data, 'utf8').toString('base64') });
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: 'chunk' },
      ':message-type': { type: 'string', value: 'event' },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: fromUtf8(payload),
  });
}

export type FakeProviderEndpoints = Awaited<ReturnType<typeof startFakeProviderEndpoints>>;

export async function startFakeProviderEndpoints(model: Pick<FakeAnthropic, 'baseUrl'>) {
  const requests: PlatformRequest[] = [];
  const errors: string[] = [];

  async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    const seen = recognise(path, body);
    if (req.method !== 'POST' || !seen) {
      errors.push(`fake-provider-endpoints: no platform serves ${req.method} ${path}`);
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `no route ${path}` }));
      return;
    }
    requests.push({ ...seen, headers: req.headers, body });
    // Back to a Messages request: the platforms take the model from the path and the version from the body.
    const { anthropic_version: _version, ...messages } = body;
    const forwarded = { ...messages, model: seen.model, ...(seen.stream ? { stream: true } : {}) };
    const upstream = await fetch(`${model.baseUrl}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'platform' }, body: JSON.stringify(forwarded) });
    const text = await upstream.text();
    if (seen.platform !== 'bedrock' || !seen.stream || upstream.status !== 200) {
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(text);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': `fake-${requests.length}` });
    for (const event of text.split('\n\n')) {
      const data = event.split('\n').find((line) => line.startsWith('data: '));
      if (data) res.write(bedrockChunk(data.slice('data: '.length)));
    }
    res.end();
  }

  const server = http.createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      errors.push(`fake-provider-endpoints: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    /** Every platform request, in arrival order. */
    requests,
    /** Requests no platform route took; a test should end with this empty. */
    errors,
    close(): Promise<void> {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
