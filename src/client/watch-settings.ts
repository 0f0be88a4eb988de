/** A watch setting is wrong; the message names the variable and what to write instead. */
export class WatchSettingsError extends Error {
  override readonly name = 'WatchSettingsError';
}

/** How followers (`agentctl run`, `watch`, `AgentRunHandle.events()`) read a run that goes on. */
export interface WatchSettings {
  /** AGENT_WATCH_RELAY: take the status and text from a worker's live relay when one is reachable (default on). */
  relay: boolean;
  /** AGENT_WATCH_POLL_MS: how often the model's text is read from the heartbeat when no relay pushes it (default 250). */
  textPollMs?: number;
}

/** Reads AGENT_WATCH_RELAY (`on` or `off`) and AGENT_WATCH_POLL_MS (50 to 10,000). */
export function watchSettingsFromEnv(env: NodeJS.ProcessEnv): WatchSettings {
  const relay = env.AGENT_WATCH_RELAY?.trim().toLowerCase() || 'on';
  if (relay !== 'on' && relay !== 'off') {
    throw new WatchSettingsError(`AGENT_WATCH_RELAY="${env.AGENT_WATCH_RELAY}" must be on or off (off: never connect to a worker's relay, read Temporal instead).`);
  }
  const rawPoll = env.AGENT_WATCH_POLL_MS?.trim();
  const textPollMs = rawPoll ? Number(rawPoll) : undefined;
  if (textPollMs !== undefined && !(Number.isInteger(textPollMs) && textPollMs >= 50 && textPollMs <= 10_000)) {
    throw new WatchSettingsError(`AGENT_WATCH_POLL_MS="${rawPoll}" must be a whole number of milliseconds from 50 to 10000 (unset: 250).`);
  }
  return { relay: relay === 'on', ...(textPollMs !== undefined ? { textPollMs } : {}) };
}
