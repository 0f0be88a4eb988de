// Detection and the cgroup v2 path, against temporary folders laid out like cgroupfs. This machine's
// kernel binds memory, pids and cpu to cgroup v1 (its cgroup2 mount offers only hugetlb, also in a
// private mount and cgroup namespace), so the v2 path is not run against a kernel here: these tests
// check which files it writes and reads, and a test fs stands in for the kernel's rmdir.
import { mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CommandLimitsSchema } from '../../../../../src/contract/command-limits';
import { v2Host } from '../../../../../src/runtime/tools/sandbox/cgroups/cgroup-v2';
import { kernelCgroupFs, type CgroupFs } from '../../../../../src/runtime/tools/sandbox/cgroups/command-cgroup';
import { detectCgroups, parseMountinfo } from '../../../../../src/runtime/tools/sandbox/cgroups/detect-cgroups';
import { removeTempDirs, tempDir } from '../../tool-test-context';

afterAll(removeTempDirs);

const MiB = 1024 ** 2;
/** A pid not alive here (above the kernel's pid_max). */
const OTHER_PID = 2 ** 22 + 1;

/** cgroupfs removes a cgroup with its interface files in it; a plain folder needs them removed too. */
const folderFs: CgroupFs = { ...kernelCgroupFs, rmdir: (dir) => rm(dir, { recursive: true }) };

/** A v2 cgroup folder as the kernel shows it to a delegated worker. */
async function v2Cgroup(dir: string, files: { controllers?: string; procs?: string; type?: boolean } = {}): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'cgroup.controllers'), files.controllers ?? 'cpuset cpu io memory hugetlb pids rdma misc\n');
  await writeFile(path.join(dir, 'cgroup.subtree_control'), '');
  await writeFile(path.join(dir, 'cgroup.procs'), files.procs ?? '');
  if (files.type ?? true) await writeFile(path.join(dir, 'cgroup.type'), 'domain\n');
}

function probe(mountPoint: string, own: string, fstype = 'cgroup2') {
  return {
    mountinfo: `41 31 0:38 / ${mountPoint.replaceAll(' ', '\\040')} rw,relatime - ${fstype} ${fstype} rw\n`,
    selfCgroup: `0::${own}\n`,
    pid: 4242,
  };
}

describe('detectCgroups on a delegated cgroup v2 subtree', () => {
  it("moves the worker's processes into a leaf and enables memory, pids and cpu for command cgroups", async () => {
    const root = await tempDir('cgroup v2 ');
    const service = path.join(root, 'system.slice/agent.service');
    await v2Cgroup(service, { procs: '101\n102\n' });
    await mkdir(path.join(service, 'durable-agent-4242-cmd-3'));
    await mkdir(path.join(service, `durable-agent-${OTHER_PID}-cmd-1`));
    const minutesAgo = new Date(Date.now() - 2 * 60 * 1000);
    await mkdir(path.join(service, `durable-agent-${OTHER_PID}-cmd-2`));
    await utimes(path.join(service, `durable-agent-${OTHER_PID}-cmd-2`), minutesAgo, minutesAgo);
    // The test process is alive: its recent cgroups stay, even when old enough for a dead pid's.
    await mkdir(path.join(service, `durable-agent-${process.pid}-cmd-1`));
    await utimes(path.join(service, `durable-agent-${process.pid}-cmd-1`), minutesAgo, minutesAgo);
    const { host, notice } = detectCgroups(probe(root, '/system.slice/agent.service'));
    expect(notice).toBeUndefined();
    expect(host).toMatchObject({ version: 2, controllers: ['memory', 'pids', 'cpu'] });
    expect(await readFile(path.join(service, 'durable-agent-worker/cgroup.procs'), 'utf8')).toBe('101\n102\n');
    expect(await readFile(path.join(service, 'cgroup.subtree_control'), 'utf8')).toBe('+memory +pids +cpu');
    // What an earlier process with this pid left behind is removed, and a dead pid's after a minute;
    // not a fresh one of a dead pid (alive, maybe, in another PID namespace), nor a live pid's.
    expect(existsSync(path.join(service, 'durable-agent-4242-cmd-3'))).toBe(false);
    expect(existsSync(path.join(service, `durable-agent-${OTHER_PID}-cmd-2`))).toBe(false);
    expect(existsSync(path.join(service, `durable-agent-${OTHER_PID}-cmd-1`))).toBe(true);
    expect(existsSync(path.join(service, `durable-agent-${process.pid}-cmd-1`))).toBe(true);
  });

  it('at the real root (no cgroup.type) moves nothing and gives commands a folder of their own', async () => {
    const root = await tempDir('cgroup-v2-');
    await v2Cgroup(root, { procs: '1\n', type: false, controllers: 'memory pids' });
    const { host, notice } = detectCgroups(probe(root, '/'));
    expect(host).toMatchObject({ version: 2, controllers: ['memory', 'pids'] });
    expect(existsSync(path.join(root, 'durable-agent-worker'))).toBe(false);
    expect(await readFile(path.join(root, 'cgroup.subtree_control'), 'utf8')).toBe('+memory +pids');
    expect(await readFile(path.join(root, 'durable-agent/cgroup.subtree_control'), 'utf8')).toBe('+memory +pids');
    // cpu is missing: the worker says which limit only the rlimits hold, and how to grant it.
    expect(notice).toMatch(/^Per-command cgroup limits are not enforced for CPU \(limits\.cpuCores\); only the rlimits hold/);
    expect(notice).toContain('Delegate=yes');
  });

  it('uses nothing of a v2 mount whose controllers are bound to v1, and says so', async () => {
    const root = await tempDir('cgroup-v2-');
    await v2Cgroup(root, { controllers: 'hugetlb', type: false });
    const { host, notice } = detectCgroups(probe(root, '/'));
    expect(host).toBeUndefined();
    expect(notice).toContain('memory (limits.totalMemoryBytes), processes (limits.totalProcesses), CPU (limits.cpuCores)');
    expect(notice).toContain('offers none of memory, pids, cpu');
    expect(readFileSync(path.join(root, 'cgroup.subtree_control'), 'utf8')).toBe('');
  });

  it('says how to grant a subtree when there is no cgroup filesystem at all', () => {
    const { host, notice } = detectCgroups({ mountinfo: '', selfCgroup: '', pid: 4242 });
    expect(host).toBeUndefined();
    expect(notice).toContain('no cgroup filesystem of this worker is mounted');
    expect(notice).toContain('a container with its own cgroup namespace and a writable /sys/fs/cgroup');
  });

  it('reads mount points with escaped spaces', () => {
    expect(parseMountinfo('41 31 0:38 / /sys/fs/my\\040cgroup rw,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate\n')).toEqual([
      { root: '/', mountPoint: '/sys/fs/my cgroup', fstype: 'cgroup2', superOptions: ['rw', 'nsdelegate'] },
    ]);
  });
});

describe('a command cgroup on cgroup v2', () => {
  it('writes memory.max, memory.swap.max, pids.max and cpu.max, reads what was hit, and kills and removes it', async () => {
    const parent = await tempDir('cgroup-v2-');
    const host = v2Host(parent, ['memory', 'pids', 'cpu'], 'durable-agent-4242', folderFs);
    const limits = CommandLimitsSchema.parse({ totalMemoryBytes: 256 * MiB, totalProcesses: 40, cpuCores: 1.5 });
    const cgroup = await host.create(limits);
    const dir = path.join(parent, 'durable-agent-4242-cmd-1');
    expect(cgroup.procsFiles).toEqual([path.join(dir, 'cgroup.procs')]);
    const read = (file: string) => readFile(path.join(dir, file), 'utf8');
    expect(await read('memory.max')).toBe(String(256 * MiB));
    expect(await read('memory.swap.max')).toBe('0');
    expect(await read('pids.max')).toBe('40');
    expect(await read('cpu.max')).toBe('150000 100000');

    // What the kernel would count for a command that hit all three.
    await writeFile(path.join(dir, 'memory.events'), 'low 0\nhigh 0\nmax 12\noom 2\noom_kill 2\noom_group_kill 0\n');
    await writeFile(path.join(dir, 'pids.events'), 'max 7\n');
    await writeFile(path.join(dir, 'cpu.stat'), 'usage_usec 900000\nnr_periods 30\nnr_throttled 18\nthrottled_usec 1250000\n');
    expect(await cgroup.hits()).toEqual({ oomKills: 2, forkRefusals: 7, periods: 30, throttledPeriods: 18, throttledSeconds: 1.25 });

    const writes: string[] = [];
    const watched = v2Host(parent, ['pids'], 'durable-agent-4243', {
      ...folderFs,
      write: async (file, value) => {
        writes.push(`${path.basename(file)}=${value}`);
        await folderFs.write(file, value);
      },
    });
    const second = await watched.create(limits);
    await second.remove();
    // Only the controllers it has; cgroup.kill first, so nothing inside outlives the removal.
    expect(writes).toEqual(['pids.max=40', 'cgroup.kill=1']);
    expect(existsSync(path.join(parent, 'durable-agent-4242-cmd-1'))).toBe(true);
    await cgroup.remove();
    expect(existsSync(dir)).toBe(false);
  });

  it('fails with CommandCgroupError, and leaves nothing, when a limit cannot be written', async () => {
    const parent = await tempDir('cgroup-v2-');
    const host = v2Host(parent, ['memory', 'pids'], 'durable-agent-4242', {
      ...folderFs,
      write: async (file, value) => {
        if (file.endsWith('pids.max')) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        await folderFs.write(file, value);
      },
    });
    await expect(host.create(CommandLimitsSchema.parse({}))).rejects.toMatchObject({ name: 'CommandCgroupError', message: expect.stringContaining('EACCES') });
    expect(existsSync(path.join(parent, 'durable-agent-4242-cmd-1'))).toBe(false);
  });
});
