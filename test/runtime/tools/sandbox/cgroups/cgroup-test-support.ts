// What the cgroup tests look at from outside: this worker's own v1 cgroups (where its command
// cgroups are made, on this machine's kernel) and the command cgroups still in them.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/** This worker's own cgroup in each v1 hierarchy, where its command cgroups are made. */
export function ownCgroups(): string[] {
  const own: string[] = [];
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
    const [, controllers = '', cgroup = ''] = line.split(':');
    for (const controller of ['memory', 'pids', 'cpu']) {
      if (controllers.split(',').includes(controller)) own.push(path.join('/sys/fs/cgroup', controller, cgroup));
    }
  }
  return own;
}

/** Cgroups of this worker (`durable-agent-<pid>…`) that still exist: none, once its calls are done. */
export function leftoverCgroups(): string[] {
  return ownCgroups().flatMap((dir) => readdirSync(dir).filter((name) => name.startsWith(`durable-agent-${process.pid}-`)).map((name) => path.join(dir, name)));
}
