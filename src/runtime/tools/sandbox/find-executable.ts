import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The absolute path of the first executable file called `name` on `searchPath` (a PATH value), or
 * undefined. It takes the PATH explicitly rather than reading process.env so that the sandbox mode
 * can be resolved for a given environment, and tested with one that lacks a program.
 */
export function findExecutable(name: string, searchPath: string | undefined): string | undefined {
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    // An empty PATH entry means the current directory; a sandbox launcher is never taken from there.
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not there, or not executable: keep looking.
    }
  }
  return undefined;
}
