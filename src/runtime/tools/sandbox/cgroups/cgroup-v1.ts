import * as path from 'node:path';
import type { CommandLimits } from '../../../../contract/command-limits';
import { CommandCgroupError } from '../errors';
import {
  cpuQuotaMicros,
  CPU_PERIOD_MICROS,
  emptyAndRemove,
  kernelCgroupFs,
  readCounter,
  type CgroupController,
  type CgroupFs,
  type CgroupHost,
  type CommandCgroup,
} from './command-cgroup';

/** One v1 hierarchy the worker may write: its controller and the worker's own cgroup in it. */
export interface V1Hierarchy {
  controller: CgroupController;
  /** `<mount><worker's own cgroup>`, where command cgroups are made (see detect-cgroups.ts). */
  parent: string;
}

/** The files that set a limit, in the order they are written (v1 names). */
function limitFiles(controller: CgroupController, limits: CommandLimits): [file: string, value: string, optional?: boolean][] {
  switch (controller) {
    case 'memory':
      // With swap, memory.limit_in_bytes alone could be sidestepped by swapping out; memsw caps both
      // (it exists only with swap accounting, hence optional).
      return [
        ['memory.limit_in_bytes', String(limits.totalMemoryBytes)],
        ['memory.memsw.limit_in_bytes', String(limits.totalMemoryBytes), true],
      ];
    case 'pids':
      return [['pids.max', String(limits.totalProcesses)]];
    case 'cpu':
      return [
        ['cpu.cfs_period_us', String(CPU_PERIOD_MICROS)],
        ['cpu.cfs_quota_us', String(cpuQuotaMicros(limits.cpuCores))],
      ];
  }
}

/**
 * Command cgroups on cgroup v1, where each controller is its own hierarchy: one folder per command
 * in each (`<prefix>-cmd-<n>`, as on v2), and the launcher joins all of them before it starts the
 * sandbox. Nothing else is made, so nothing of the worker is left once its commands are done.
 */
export function v1Host(hierarchies: readonly V1Hierarchy[], prefix: string, fs: CgroupFs = kernelCgroupFs): CgroupHost {
  let made = 0;
  return {
    version: 1,
    controllers: hierarchies.map((h) => h.controller),
    async create(limits) {
      const name = `${prefix}-cmd-${++made}`;
      const dirs = hierarchies.map((h) => ({ controller: h.controller, dir: path.join(h.parent, name) }));
      const created: string[] = [];
      const remove = async () => {
        const failures = await Promise.allSettled(created.map((dir) => emptyAndRemove(fs, dir)));
        const failed = failures.find((f): f is PromiseRejectedResult => f.status === 'rejected');
        if (failed) throw failed.reason;
      };
      try {
        for (const { controller, dir } of dirs) {
          await fs.mkdir(dir);
          created.push(dir);
          for (const [file, value, optional] of limitFiles(controller, limits)) {
            await fs.write(path.join(dir, file), value).catch((error: unknown) => {
              if (!optional) throw error;
            });
          }
        }
      } catch (error) {
        await remove().catch(() => undefined);
        throw new CommandCgroupError(`Could not create the command's cgroup (${dirs.map((d) => d.dir).join(', ')}): ${String(error)}`);
      }
      const dirOf = (controller: CgroupController) => dirs.find((d) => d.controller === controller)?.dir;
      const counter = async (controller: CgroupController, file: string, key: string) => {
        const dir = dirOf(controller);
        return dir === undefined ? 0 : readCounter(fs, path.join(dir, file), key);
      };
      const cgroup: CommandCgroup = {
        procsFiles: dirs.map((d) => path.join(d.dir, 'cgroup.procs')),
        hits: async () => ({
          oomKills: await counter('memory', 'memory.oom_control', 'oom_kill'),
          forkRefusals: await counter('pids', 'pids.events', 'max'),
          periods: await counter('cpu', 'cpu.stat', 'nr_periods'),
          throttledPeriods: await counter('cpu', 'cpu.stat', 'nr_throttled'),
          throttledSeconds: (await counter('cpu', 'cpu.stat', 'throttled_time')) / 1e9,
        }),
        remove,
      };
      return cgroup;
    },
  };
}
