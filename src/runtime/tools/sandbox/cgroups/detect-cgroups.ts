import { accessSync, appendFileSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { v1Host } from './cgroup-v1';
import { v2Host } from './cgroup-v2';
import { CGROUP_CONTROLLERS, code, type CgroupController, type CgroupHost } from './command-cgroup';

/** What the worker found at start: where command cgroups go, and what to log when some limits are not enforced. */
export interface CgroupDetection {
  host: CgroupHost | undefined;
  /** Logged once at worker start when a controller is missing: which limits only rlimits hold, and how to grant them. */
  notice: string | undefined;
}

/** What detection reads of the host; /proc/self's by default, a temporary layout in tests. */
export interface CgroupProbe {
  mountinfo: string;
  /** /proc/self/cgroup */
  selfCgroup: string;
  pid: number;
}

const LIMIT_OF: Record<CgroupController, string> = {
  memory: 'memory (limits.totalMemoryBytes)',
  pids: 'processes (limits.totalProcesses)',
  cpu: 'CPU (limits.cpuCores)',
};

/** v1 files whose presence shows the controller's hierarchy is really there. */
const V1_KEY_FILE: Record<CgroupController, string> = { memory: 'memory.limit_in_bytes', pids: 'pids.max', cpu: 'cpu.cfs_quota_us' };

let ofThisWorker: CgroupDetection | undefined;

/** Detection for this process, done once: v2 preparation moves the worker, so it must not run twice. */
export function cgroupsOfThisWorker(): CgroupDetection {
  ofThisWorker ??= detectCgroups({ mountinfo: readOr('/proc/self/mountinfo'), selfCgroup: readOr('/proc/self/cgroup'), pid: process.pid });
  return ofThisWorker;
}

/** AGENT_COMMAND_CGROUPS, as parsed with the worker settings: `auto` looks at start, `off` never does. */
export type CommandCgroupsSwitch = 'auto' | 'off';

/**
 * The command cgroups the worker's settings ask for. `off` is for a host that manages cgroups itself,
 * or for telling a launcher problem apart from a cgroup one: nothing under /sys/fs/cgroup is read,
 * made, moved or removed (not even another worker's leftovers), and the notice says which limits
 * are lost. `auto` is the detection below, once per process.
 */
export function commandCgroupsFor(setting: CommandCgroupsSwitch): CgroupDetection {
  if (setting !== 'off') return cgroupsOfThisWorker();
  return {
    host: undefined,
    notice:
      `Per-command cgroup limits are not enforced for ${CGROUP_CONTROLLERS.map((c) => LIMIT_OF[c]).join(', ')}, because ` +
      'AGENT_COMMAND_CGROUPS=off: no command gets a cgroup, and leftover command cgroups are not removed. The rlimits ' +
      '(limits.cpuSeconds, memoryBytes, fileSizeBytes, openFiles, processes) and the /tmp cap of the sandbox still hold. Unset it, or set ' +
      'it to auto, to enforce them (docs/guides/security.md, "Cgroups per command").',
  };
}

/**
 * Finds where this worker may create a cgroup per command. First a delegated cgroup v2 subtree: the
 * worker's own v2 cgroup with memory, pids or cpu available and cgroup.subtree_control writable.
 * Else writable cgroup v1 hierarchies of those controllers (a root worker on a v1 or hybrid host).
 * Else none: the rlimits are the only limits, and the notice says so and how to grant a subtree.
 */
export function detectCgroups(probe: CgroupProbe): CgroupDetection {
  const mounts = parseMountinfo(probe.mountinfo);
  const own = parseSelfCgroup(probe.selfCgroup);
  const prefix = `durable-agent-${probe.pid}`;
  const reasons: string[] = [];

  const v2Mount = mounts.find((m) => m.fstype === 'cgroup2');
  const v2Dir = v2Mount && own.has('') ? inside(v2Mount, own.get('')!) : undefined;
  if (v2Dir) {
    const prepared = prepareV2Parent(v2Dir, probe.pid);
    if (typeof prepared !== 'string') return withNotice(v2Host(prepared.parent, prepared.controllers, prefix), reasons);
    reasons.push(prepared);
  }

  const hierarchies = CGROUP_CONTROLLERS.flatMap((controller) => {
    const mount = mounts.find((m) => m.fstype === 'cgroup' && m.superOptions.includes(controller));
    const ownPath = [...own].find(([controllers]) => controllers.split(',').includes(controller))?.[1];
    const dir = mount && ownPath !== undefined ? inside(mount, ownPath) : undefined;
    if (!dir) return [];
    // A trial cgroup: the folder is writable and the kernel gives it the controller's files.
    const trial = path.join(dir, `${prefix}-trial`);
    try {
      removeLeftovers(dir, probe.pid);
      mkdirSync(trial);
      try {
        accessSync(path.join(trial, V1_KEY_FILE[controller]), constants.W_OK);
      } finally {
        rmdirSync(trial);
      }
      return [{ controller, parent: dir }];
    } catch (error) {
      reasons.push(`cgroup v1 ${controller} at ${dir} is not writable (${code(error) ?? String(error)})`);
      return [];
    }
  });
  if (hierarchies.length > 0) return withNotice(v1Host(hierarchies, prefix), reasons);
  if (!v2Dir && reasons.length === 0) reasons.push('no cgroup filesystem of this worker is mounted');
  return withNotice(undefined, reasons);
}

/**
 * Makes the worker's own v2 cgroup the parent of command cgroups. The kernel enables controllers
 * for children only in a cgroup without processes of its own (except the root), so the worker's
 * processes move into a leaf, `durable-agent-worker`, first: the usual step under systemd's
 * Delegate=yes or in a container with its own cgroup namespace. At the real root (no cgroup.type
 * file) nothing is moved; the commands get a folder of their own, `durable-agent`, instead.
 * Returns the parent, or why it cannot be used.
 */
export function prepareV2Parent(dir: string, self: number): { parent: string; controllers: CgroupController[] } | string {
  try {
    const available = readFileSync(path.join(dir, 'cgroup.controllers'), 'utf8').trim().split(/\s+/);
    const controllers = CGROUP_CONTROLLERS.filter((c) => available.includes(c));
    if (controllers.length === 0) return `the cgroup v2 subtree ${dir} offers none of memory, pids, cpu (they may be bound to cgroup v1)`;
    accessSync(path.join(dir, 'cgroup.subtree_control'), constants.W_OK);
    removeLeftovers(dir, self);
    const enable = controllers.map((c) => `+${c}`).join(' ');
    let parent = dir;
    if (existsSync(path.join(dir, 'cgroup.type'))) {
      const leaf = path.join(dir, 'durable-agent-worker');
      mkdirSync(leaf, { recursive: true });
      const pids = readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter((p) => /^\d+$/.test(p));
      for (const pid of pids) moveProcess(path.join(leaf, 'cgroup.procs'), pid);
    } else {
      parent = path.join(dir, 'durable-agent');
      appendFileSync(path.join(dir, 'cgroup.subtree_control'), enable);
      mkdirSync(parent, { recursive: true });
    }
    appendFileSync(path.join(parent, 'cgroup.subtree_control'), enable);
    return { parent, controllers };
  } catch (error) {
    return `the cgroup v2 subtree ${dir} is not delegated to this worker (${code(error) ?? String(error)})`;
  }
}

function moveProcess(procsFile: string, pid: string): void {
  try {
    appendFileSync(procsFile, `${pid}\n`);
  } catch (error) {
    // A process that exited meanwhile is no longer there to move.
    if (code(error) !== 'ESRCH') throw error;
  }
}

/** A command joins its cgroup milliseconds after it is made; one of a dead pid this old is left over. */
const DEAD_PID_LEFTOVER_MS = 60 * 1000;
/** A call lasts at most 600 s; a command cgroup this old is left over whatever its pid. */
const LEFTOVER_MS = 60 * 60 * 1000;

/**
 * Removes the command cgroups (`durable-agent-<pid>-cmd-<n>`) a worker left behind when it died
 * during a call: those of this worker's pid (an earlier process with the same pid; this one has made
 * none yet), those of a pid not alive here after a minute, and any after an hour. The waits are for
 * a worker in another PID namespace sharing a v1 hierarchy, whose pid looks dead here: it enters a
 * cgroup it made within milliseconds. rmdir fails on a cgroup that holds processes, so nothing in
 * use is removed.
 */
function removeLeftovers(dir: string, self: number, now = Date.now()): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const pid = Number(/^durable-agent-(\d+)(-|$)/.exec(entry.name)?.[1] ?? NaN);
    if (!entry.isDirectory() || Number.isNaN(pid)) continue;
    const folder = path.join(dir, entry.name);
    const age = now - statSync(folder).mtimeMs;
    if (pid === self || (age > DEAD_PID_LEFTOVER_MS && !alive(pid)) || age > LEFTOVER_MS) removeTree(folder);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return code(error) === 'EPERM';
  }
}

/** rmdir of a cgroup and its child cgroups (cgroupfs removes interface files with their folder). */
function removeTree(dir: string): void {
  try {
    for (const child of readdirSync(dir, { withFileTypes: true })) if (child.isDirectory()) removeTree(path.join(dir, child.name));
    rmdirSync(dir);
  } catch {
    // Still in use: left in place.
  }
}

function withNotice(host: CgroupHost | undefined, reasons: readonly string[]): CgroupDetection {
  const missing = CGROUP_CONTROLLERS.filter((c) => !host?.controllers.includes(c));
  if (missing.length === 0) return { host, notice: undefined };
  return {
    host,
    notice:
      `Per-command cgroup limits are not enforced for ${missing.map((c) => LIMIT_OF[c]).join(', ')}; only the rlimits hold there ` +
      `(${reasons.join('; ') || 'the controllers are not available'}). To enforce them, give the worker a delegated cgroup v2 subtree: ` +
      'systemd `Delegate=yes` on its service, or a container with its own cgroup namespace and a writable /sys/fs/cgroup ' +
      '(docs/guides/security.md, "Cgroups per command").',
  };
}

interface Mount {
  root: string;
  mountPoint: string;
  fstype: string;
  superOptions: string[];
}

/** /proc/self/mountinfo: "id parent dev root mountpoint options [optional...] - fstype source superoptions". */
export function parseMountinfo(text: string): Mount[] {
  return text.split('\n').flatMap((line) => {
    const [before, after] = line.split(' - ');
    if (!before || !after) return [];
    const fields = before.split(' ');
    const [fstype, , superOptions = ''] = after.split(' ');
    if (fields.length < 5 || !fstype) return [];
    return [{ root: unescape(fields[3]!), mountPoint: unescape(fields[4]!), fstype, superOptions: superOptions.split(',') }];
  });
}

/** /proc/self/cgroup: "id:controllers:path"; v2's line has no controllers (key ""). */
function parseSelfCgroup(text: string): Map<string, string> {
  const own = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (match) own.set(match[1]!, match[2]!);
  }
  return own;
}

/** The folder of cgroup `cgroupPath` under a mount of its hierarchy, if the mount shows it. */
function inside(mount: Mount, cgroupPath: string): string | undefined {
  const relative = path.posix.relative(mount.root, cgroupPath);
  if (relative.startsWith('..')) return undefined;
  return path.join(mount.mountPoint, relative);
}

function unescape(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

function readOr(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
