/** The PATH a tool gets when the worker has none; the usual Debian default for a login shell. */
export const DEFAULT_TOOL_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The environment a tool process starts with. It is built up from nothing rather than filtered from
 * the worker's, because the worker's holds its secrets (ANTHROPIC_API_KEY, TEMPORAL_* credentials)
 * and a deny-list would miss the next one added. Only PATH, HOME (the workspace), LANG, TERM and the
 * variables named in `allow` that the source has get through.
 */
export function toolEnvironment(opts: {
  home: string;
  allow: readonly string[];
  source: NodeJS.ProcessEnv;
}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of opts.allow) {
    const value = opts.source[name];
    if (value !== undefined) env[name] = value;
  }
  // Set last, so an allow-list naming HOME cannot point a tool back at the worker's home.
  env.PATH = opts.source.PATH || DEFAULT_TOOL_PATH;
  env.HOME = opts.home;
  env.LANG = opts.source.LANG || 'C.UTF-8';
  env.TERM = opts.source.TERM || 'dumb';
  return env;
}
