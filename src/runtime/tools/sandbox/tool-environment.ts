import * as path from 'node:path';
import { isCodeLoadingVariable } from '../../../contract/code-loading-variables';

/** The PATH a tool gets when the worker has none; the usual Debian default for a login shell. */
export const DEFAULT_TOOL_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Search paths whose empty, relative or in-workspace entries would make a program load workspace files. */
const SEARCH_PATHS = ['PATH', 'PYTHONPATH', 'PERL5LIB', 'PERLLIB', 'NODE_PATH', 'LD_LIBRARY_PATH', 'RUBYLIB', 'CLASSPATH'];

/**
 * What every command gets whoever let it run: git reads no system or global configuration (HOME is
 * fresh anyway, this also covers /etc/gitconfig), never prompts and never pages; Python adds no user
 * site-packages folder; pagers are `cat`.
 */
const RUNTIME_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  PYTHONNOUSERSITE: '1',
};

/**
 * Git settings forced for a call no person saw, over whatever the repository's configuration says
 * (GIT_CONFIG_COUNT: command-line configuration, which wins over every file and counts as git's
 * "protected" configuration). Each would otherwise run a program git finds in the configuration. The
 * repository's own config is a protected path, so only a person can have written it; these hold even
 * when a call reaches another git directory (`.git/commondir`, a `.git` file, a worktree).
 */
export const UNSEEN_GIT_CONFIG: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.sshCommand', 'ssh'],
  ['core.pager', 'cat'],
  ['core.editor', 'false'],
  ['sequence.editor', 'false'],
  ['core.askPass', ''],
  ['credential.helper', ''],
  ['core.gitProxy', 'none'],
  ['protocol.ext.allow', 'never'],
  ['gpg.program', 'gpg'],
  ['gpg.ssh.program', 'ssh-keygen'],
  ['gpg.x509.program', 'gpgsm'],
  ['log.showSignature', 'false'],
  // A bare repository found by walking up from a folder a run filled (HEAD, objects, refs, config).
  ['safe.bareRepository', 'explicit'],
];

/**
 * The environment a tool process starts with. It is built up from nothing rather than filtered from
 * the worker's, because the worker's holds its secrets (ANTHROPIC_API_KEY, TEMPORAL_* credentials)
 * and a deny-list would miss the next one added. Only PATH, HOME (the call's own, fresh folder: see
 * call-home.ts), LANG, TERM, the runtime settings above and the variables named in `allow` that the
 * source has get through. Variables that load code (code-loading-variables.ts) never do, and search
 * paths keep only absolute folders outside the workspace: an empty entry means the current folder.
 */
export function toolEnvironment(opts: {
  home: string;
  /** The workspace: search-path entries inside it are dropped. */
  workspace: string;
  allow: readonly string[];
  source: NodeJS.ProcessEnv;
  /** Whether a person saw and approved this call; otherwise git's code-running settings are forced off. */
  seen: boolean;
}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of opts.allow) {
    const value = opts.source[name];
    if (value === undefined || isCodeLoadingVariable(name)) continue;
    env[name] = SEARCH_PATHS.includes(name) ? outsideWorkspace(value, opts.workspace) : value;
  }
  // Set last, so an allow-list naming one of them cannot point a tool back at the worker's home or undo the settings.
  env.PATH = outsideWorkspace(opts.source.PATH ?? '', opts.workspace) || DEFAULT_TOOL_PATH;
  env.HOME = opts.home;
  env.LANG = opts.source.LANG || 'C.UTF-8';
  env.TERM = opts.source.TERM || 'dumb';
  Object.assign(env, RUNTIME_ENV);
  if (!opts.seen) Object.assign(env, gitConfigEnv(UNSEEN_GIT_CONFIG));
  return env;
}

function gitConfigEnv(pairs: readonly (readonly [string, string])[]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) };
  pairs.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

/** A `:`-separated search path without empty, relative or in-workspace entries. */
function outsideWorkspace(value: string, workspace: string): string {
  const root = path.resolve(workspace);
  return value
    .split(':')
    .filter((entry) => path.isAbsolute(entry) && !isAtOrInside(root, path.resolve(entry)))
    .join(':');
}

function isAtOrInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
