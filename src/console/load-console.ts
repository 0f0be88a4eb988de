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
  const { startConsole } = await import('./start-console.js');
  return startConsole(options, given);
}
