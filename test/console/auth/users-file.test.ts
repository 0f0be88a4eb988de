import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../../../src/console/auth/password-hash';
import { loadUsersFile } from '../../../src/console/auth/users-file';
import { ConsoleConfigError } from '../../../src/console/errors';

describe('users file', () => {
  const write = async (content: unknown) => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'console-users-')), 'users.json');
    await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  };

  it('loads valid users and refuses a bad name, a plain password, duplicates and broken JSON with what to fix', async () => {
    const hash = await hashPassword('pw');
    expect(loadUsersFile(await write({ users: [{ name: 'alice', passwordHash: hash }] }))).toEqual([{ name: 'alice', passwordHash: hash }]);
    const cases: [unknown, RegExp][] = [
      [{ users: [{ name: '../alice', passwordHash: hash }] }, /users\.0\.name: a name is letters/],
      [{ users: [{ name: 'alice', passwordHash: 'hunter2' }] }, /not a hash from `agentctl console --hash-password`/],
      [{ users: [{ name: 'a', passwordHash: hash }, { name: 'a', passwordHash: hash }] }, /two users have the same name/],
      ['{ users: ', /Cannot read the console users file/],
    ];
    for (const [content, message] of cases) {
      const file = await write(content);
      expect(() => loadUsersFile(file)).toThrow(ConsoleConfigError);
      expect(() => loadUsersFile(file)).toThrow(message);
    }
  });
});
