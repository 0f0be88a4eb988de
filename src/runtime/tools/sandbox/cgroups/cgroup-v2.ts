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
} from './command-cgroup';

/** The files that set a limit (v2 names); optional ones may be missing (swap accounting off). */
function limitFiles(controllers: readonly CgroupController[], limits: CommandLimits): [file: string, value: string, optional?: boolean][] {
  const files: [string, string, boolean?][] = [];
  if (controllers.includes('memory')) {
    files.push(['memory.max', String(limits.totalMemoryBytes)], ['memory.swap.max', '0', true]);
  }
  if (controllers.includes('pids')) files.push(['pids.max', String(limits.totalProcesses)]);
  if (controllers.includes('cpu')) files.push(['cpu.max', `${cpuQuotaMicros(limits.cpuCores)} ${CPU_PERIOD_MICROS}`]);
  return files;
}

/**
 * Command cgroups in a delegated cgroup v2 subtree: one folder per command under `parent`, whose
 * cgroup.subtree_control already enables `controllers` (prepareV2Parent in detect-cgroups.ts).
 * `prefix` names them after the worker (`durable-agent-<pid>-cmd-<n>`), so a later worker can tell
 * the ones a dead worker left behind.
 */
export function v2Host(parent: string, controllers: readonly CgroupController[], prefix: string, fs: CgroupFs = kernelCgroupFs): CgroupHost {
  let made = 0;
  return {
    version: 2,
    controllers,
    async create(limits) {
      const dir = path.join(parent, `${prefix}-cmd-${++made}`);
      try {
        await fs.mkdir(dir);
      } catch (error) {
        throw new CommandCgroupError(`Could not create the command's cgroup ${dir}: ${String(error)}`);
      }
      try {
        for (const [file, value, optional] of limitFiles(controllers, limits)) {
          await fs.write(path.join(dir, file), value).catch((error: unknown) => {
            if (!optional) throw error;
          });
        }
      } catch (error) {
        await emptyAndRemove(fs, dir).catch(() => undefined);
        throw new CommandCgroupError(`Could not set the limits of the command's cgroup ${dir}: ${String(error)}`);
      }
      const counter = (file: string, key: string) => readCounter(fs, path.join(dir, file), key);
      return {
        procsFiles: [path.join(dir, 'cgroup.procs')],
        hits: async () => ({
          oomKills: await counter('memory.events', 'oom_kill'),
          forkRefusals: await counter('pids.events', 'max'),
          periods: await counter('cpu.stat', 'nr_periods'),
          throttledPeriods: await counter('cpu.stat', 'nr_throttled'),
          throttledSeconds: (await counter('cpu.stat', 'throttled_usec')) / 1e6,
        }),
        remove: () => emptyAndRemove(fs, dir, 'cgroup.kill'),
      };
    },
  };
}
