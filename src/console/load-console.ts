// `agentctl console` starts the console through here. Its web server (hono, @hono/node-server) and the
// browser modules it serves (preact, htm) are optional peer dependencies: a project that only embeds
// the library need not install them, so start-console.ts and everything under it load on first use.
import type { Client } from '@temporalio/client';
import { requireInstalled } from '../runtime/optional-dependency';
import type { FollowUpChannel } from './actions/follow-up';
import type { ConsoleOptions } from './console-options';
import type { RunningConsole } from './start-console';

/** The packages the console needs besides the library's own. */
export const CONSOLE_PACKAGES = ['hono', '@hono/node-server', 'preact', 'htm'] as const;

/** `startConsole`, or `MissingDependencyError` with the `npm i` line when the console's packages are not installed. */
export async function loadAndStartConsole(options: ConsoleOptions, given: { client: Client; followUp?: FollowUpChannel }): Promise<RunningConsole> {
  requireInstalled('agentctl console', CONSOLE_PACKAGES);
  // require, not import(): agentctl run from a checkout loads the sources through tsx's require hook,
  // which a dynamic import() would go around (the .ts file is not found); compiled, it is the same.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startConsole } = require('./start-console') as typeof import('./start-console');
  return startConsole(options, given);
}
