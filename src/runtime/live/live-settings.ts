import { hostname } from 'node:os';

/** A live relay setting is wrong; the message names the variable and what to write instead. */
export class LiveRelaySettingsError extends Error {
  override readonly name = 'LiveRelaySettingsError';
}

/** Where the worker's live relay listens and the URL watchers are told (AGENT_LIVE_RELAY, AGENT_LIVE_RELAY_URL). */
export interface LiveRelaySettings {
  /** Where the relay listens; undefined when AGENT_LIVE_RELAY=off. Port 0 picks a free one. */
  listen?: { host: string; port: number };
  /** The base URL watchers are given (AGENT_LIVE_RELAY_URL); by default built from where it listens. */
  url?: string;
}

/** Loopback, on a free port: watchers on this machine get the push channel, nobody else can reach it. */
export const DEFAULT_LIVE_RELAY = { host: '127.0.0.1', port: 0 };

function listenAddress(raw: string): { host: string; port: number } {
  // "7480", "host:7480", "[::1]:7480"
  const found = /^(?:\[([^\]]+)\]:|([^:]+):)?(\d+)$/.exec(raw);
  const port = Number(found?.[3]);
  if (!found || !Number.isInteger(port) || port > 65_535) {
    throw new LiveRelaySettingsError(`AGENT_LIVE_RELAY="${raw}" must be off, a port, or host:port (e.g. 127.0.0.1:7480, [::1]:7480, 0.0.0.0:7480).`);
  }
  return { host: found[1] ?? found[2] ?? DEFAULT_LIVE_RELAY.host, port };
}

/**
 * Reads AGENT_LIVE_RELAY (where the worker's live relay listens: `off`, a port, or `host:port`;
 * loopback on a free port by default) and AGENT_LIVE_RELAY_URL (the URL watchers are told to use).
 * Called by parseWorkerSettings, once.
 */
export function liveRelaySettingsFromEnv(env: NodeJS.ProcessEnv): LiveRelaySettings {
  const raw = env.AGENT_LIVE_RELAY?.trim() ?? '';
  const rawUrl = env.AGENT_LIVE_RELAY_URL?.trim() || undefined;
  if (rawUrl !== undefined && !/^https?:\/\/[^/]+\/?$/.test(rawUrl)) {
    throw new LiveRelaySettingsError(`AGENT_LIVE_RELAY_URL="${rawUrl}" must be a base URL such as http://worker-3.internal:7480 (scheme, host and port, no path).`);
  }
  if (raw.toLowerCase() === 'off') return {};
  const listen = raw === '' ? DEFAULT_LIVE_RELAY : listenAddress(raw);
  return { listen, url: rawUrl?.replace(/\/$/, '') };
}

/** The URL watchers are given: the configured one, or where the relay listens (this host's name when it listens on every interface). */
export function advertisedUrl(settings: LiveRelaySettings, port: number): string {
  if (settings.url) return settings.url;
  const host = settings.listen?.host ?? DEFAULT_LIVE_RELAY.host;
  const named = host === '0.0.0.0' || host === '::' ? hostname() : host;
  return `http://${named.includes(':') ? `[${named}]` : named}:${port}`;
}
