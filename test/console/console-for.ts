// A console app (no browser, no port) over a test worker's client, with two users, alice and bo
// (password "pw"), and a way to act as either through the JSON routes.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { expect } from 'vitest';
import { hashPassword } from '../../src/console/auth/password-hash';
import { consoleOptions } from '../../src/console/console-options';
import { buildConsole, type BuiltConsole } from '../../src/console/start-console';
import type { RunHarness } from '../support/agent-run-harness';
import { HttpSession } from './http-session';

export async function consoleFor(harness: RunHarness, names: string[] = ['alice', 'bo']): Promise<{ built: BuiltConsole; as(name: string): Promise<HttpSession> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'console-users-'));
  const usersFile = path.join(dir, 'users.json');
  const passwordHash = await hashPassword('pw');
  await writeFile(usersFile, JSON.stringify({ users: names.map((name) => ({ name, passwordHash })) }));
  const built = buildConsole(consoleOptions({ usersFile, localUser: 'owner', taskQueue: harness.taskQueue, filter: `TaskQueue = '${harness.taskQueue}'` }, {}), { client: harness.client });
  return {
    built,
    async as(name) {
      const session = new HttpSession(built.app);
      expect((await session.login(name, 'pw')).status).toBe(303);
      return session;
    },
  };
}
