import { AesGcmPayloadCodec } from '../../runtime/codec/aes-gcm-codec';
import { requireInstalled } from '../../runtime/optional-dependency';
import type { Command } from '../../client/cli-context';
import { UsageError } from '../../client/errors';

export const DEFAULT_CODEC_PORT = 8888;
/** The dev server's Web UI as `npm start` serves it. */
export const DEFAULT_UI_ORIGINS = ['http://localhost:8233', 'http://127.0.0.1:8233'];

function portFlag(value: string | boolean | undefined): number {
  if (value === undefined) return DEFAULT_CODEC_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be a port number (0-65535), not "${String(value)}"`);
  return port;
}

/**
 * `agentctl codec-server`: serves /encode and /decode with this machine's AGENT_ENCRYPTION_KEY (and
 * AGENT_ENCRYPTION_OLD_KEYS), so the Temporal Web UI shows sealed payloads decoded to whoever can
 * reach it. It holds the keys and never connects to Temporal; it runs until Ctrl-C.
 */
export const codecServerCommand: Command = {
  name: 'codec-server',
  usage:
    'agentctl codec-server [--port 8888] [--host 127.0.0.1] [--ui-origin http://localhost:8233[,...]] [--token T]   ' +
    '(keys from AGENT_ENCRYPTION_KEY / AGENT_ENCRYPTION_OLD_KEYS; token also from AGENT_CODEC_TOKEN)',
  summary: 'serve /encode and /decode for the Temporal Web UI (--ui-codec-endpoint), with the encryption keys',
  async run(ctx) {
    // Its web server (hono) is an optional peer dependency, loaded only for this command.
    requireInstalled('agentctl codec-server', ['hono', '@hono/node-server']);
    // require, not import(): see src/console/load-console.ts.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { newCodecToken, startCodecServer } = require('../../runtime/codec/codec-server') as typeof import('../../runtime/codec/codec-server');
    const { keys, token: configuredToken } = ctx.clientSettings.codec;
    if (!keys) throw new UsageError('codec-server needs AGENT_ENCRYPTION_KEY (and AGENT_ENCRYPTION_OLD_KEYS for older keys) to be set');
    const flags = ctx.args.flags;
    const origins = typeof flags['ui-origin'] === 'string' ? flags['ui-origin'].split(',').map((o) => o.trim()).filter(Boolean) : DEFAULT_UI_ORIGINS;
    // A token always: without one named, a fresh one is printed with the endpoint that carries it.
    const given = typeof flags.token === 'string' ? flags.token : configuredToken;
    const token = given ?? newCodecToken();
    const server = await startCodecServer({
      codec: new AesGcmPayloadCodec(keys),
      port: portFlag(flags.port),
      host: typeof flags.host === 'string' ? flags.host : undefined,
      origins,
      token,
    });
    ctx.out(`Codec server on ${server.url} (key "${keys.current.id}"${keys.byId.size > 1 ? ` + ${keys.byId.size - 1} older` : ''}; CORS for ${origins.join(', ')}; token required).`);
    if (!given) ctx.out(`Token (generated; pass --token or AGENT_CODEC_TOKEN to choose one): ${token}`);
    ctx.out(`Point the Web UI at it: temporal server start-dev --ui-codec-endpoint ${server.uiEndpoint}  (or the UI's Codec Server setting). Ctrl-C stops it.`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await server.close();
    return 0;
  },
};
