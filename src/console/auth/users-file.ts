// The console's configurable users: a JSON file named by AGENT_CONSOLE_USERS (or `--users`), one
// entry per person with a scrypt hash of their password (`agentctl console --hash-password`). The
// name is the person's approver name: decisions are made, remembered and signed under it.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { APPROVER_NAME } from '../../client/approver-keys';
import { describeZodError } from '../../contract/describe-zod-error';
import { ConsoleConfigError } from '../errors';
import { isPasswordHash } from './password-hash';

export { USERS_FILE_ENV } from '../../client/console-settings';

const ConsoleUserSchema = z.object({
  name: z.string().regex(APPROVER_NAME, 'a name is letters, digits, ".", "_", "-" or "@", starting with a letter or digit (it names the approver key file too)'),
  passwordHash: z.string().refine(isPasswordHash, 'not a hash from `agentctl console --hash-password`'),
});

export const UsersFileSchema = z
  .object({ users: z.array(ConsoleUserSchema) })
  .refine((file) => new Set(file.users.map((u) => u.name)).size === file.users.length, 'two users have the same name');
export type UsersFile = z.infer<typeof UsersFileSchema>;
export type ConsoleUser = UsersFile['users'][number];

/** Reads and validates the users file; a missing or malformed file stops the console with what to fix. */
export function loadUsersFile(file: string): ConsoleUser[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConsoleConfigError(`Cannot read the console users file ${file}: ${(error as Error).message}`);
  }
  const parsed = UsersFileSchema.safeParse(raw);
  if (!parsed.success) throw new ConsoleConfigError(`The console users file ${file} is invalid:\n${describeZodError(parsed.error)}`);
  return parsed.data.users;
}
