import { accessSync, constants, statSync } from 'node:fs';

/** Whether `file` is a file this process may run. */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
