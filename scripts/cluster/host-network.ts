// Simulated hosts on one machine: a network namespace per host, each joined by a veth pair to a
// bridge in the machine's own namespace. The bridge's address is where the hosts reach PostgreSQL,
// the Temporal frontends (through the frontend proxy) and the model API; a host has no other route
// (no NAT, no internet). Worker hosts and Temporal server hosts are alike; only their names and
// addresses differ.
//
//   root namespace: <name>-br 10.x.y.1/24 ── <name>-h1 ══ eth0 10.x.y.11/24 (namespace <name>-host1)
//                                         ├─ <name>-h2 ══ eth0 10.x.y.12/24 (namespace <name>-host2)
//                                         ├─ ...
//                                         ├─ <name>-t1 ══ eth0 10.x.y.21/24 (namespace <name>-temporal1)
//                                         └─ <name>-t2 ══ eth0 10.x.y.22/24 (namespace <name>-temporal2)
import { execFileSync } from 'node:child_process';
import { ClusterHostError } from './errors';

export interface NetworkOptions {
  /** Prefix of every namespace and interface (keep it short: Linux names stop at 15 characters). */
  name: string;
  /** The first three octets of the private /24, e.g. `10.213.0`. */
  subnet: string;
  /** Worker hosts (at most 10: their addresses are .11 to .20). */
  hosts: number;
  /** Hosts for Temporal server nodes (default 0, at most 10: .21 to .30). */
  serverHosts?: number;
}

export interface HostAddress {
  /** The simulated host's name (also its hostname, so workers identify as `pid@<hostname>`). */
  hostname: string;
  namespace: string;
  address: string;
}

export interface ClusterNetwork {
  /** The bridge's address in the root namespace: what the hosts connect to. */
  gateway: string;
  hosts: HostAddress[];
  serverHosts: HostAddress[];
  /** Kills whatever still runs in the namespaces and deletes them and the bridge. */
  remove(): void;
}

function ip(args: string[]): string {
  try {
    return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new ClusterHostError(`\`ip ${args.join(' ')}\` failed: ${stderr || (error as Error).message}`);
  }
}

/** The process ids in a namespace (empty when it does not exist). */
export function namespacePids(namespace: string): number[] {
  try {
    return execFileSync('ip', ['netns', 'pids', namespace], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** SIGKILLs every process in the namespace at once: what a host losing power looks like to the others. */
export function killNamespace(namespace: string): void {
  for (const pid of namespacePids(namespace)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // It exited meanwhile.
    }
  }
}

const hostsOf = (options: NetworkOptions, kind: 'worker' | 'server') => {
  const [count, hostname, veth, first] = kind === 'worker' ? [options.hosts, 'host', 'h', 11] : [options.serverHosts ?? 0, 'temporal', 't', 21];
  return Array.from({ length: count }, (_, i) => ({
    hostname: `${hostname}${i + 1}`,
    namespace: `${options.name}-${hostname}${i + 1}`,
    veth: `${options.name}-${veth}${i + 1}`,
    address: `${options.subnet}.${first + i}`,
  }));
};
const namespacesOf = (options: NetworkOptions) => [...hostsOf(options, 'worker'), ...hostsOf(options, 'server')];
const addressOnly = ({ hostname, namespace, address }: HostAddress): HostAddress => ({ hostname, namespace, address });

function existingNamespaces(): Set<string> {
  return new Set(ip(['netns', 'list']).split('\n').map((line) => line.split(' ')[0]!).filter(Boolean));
}

function linkExists(name: string): boolean {
  try {
    execFileSync('ip', ['link', 'show', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Removes a network with these names, e.g. one a killed earlier run left behind. */
export function removeNetwork(options: NetworkOptions): void {
  const existing = existingNamespaces();
  for (const host of namespacesOf(options)) {
    if (!existing.has(host.namespace)) continue;
    killNamespace(host.namespace);
    // Deleting the namespace destroys its end of the veth pair, and with it the other end.
    ip(['netns', 'del', host.namespace]);
  }
  if (linkExists(`${options.name}-br`)) ip(['link', 'del', `${options.name}-br`]);
}

export function createNetwork(options: NetworkOptions): ClusterNetwork {
  if (process.getuid?.() !== 0) {
    throw new ClusterHostError('The cluster simulates hosts with network namespaces, which needs root. Run it as root (e.g. `sudo -E npm run cluster`).');
  }
  if (!/^\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(options.subnet)) throw new ClusterHostError(`"${options.subnet}" is not the first three octets of a /24, like 10.213.0.`);
  for (const [what, count] of [['worker hosts', options.hosts], ['server hosts', options.serverHosts ?? 0]] as const) {
    if (!Number.isInteger(count) || count < 0 || count > 10) throw new ClusterHostError(`${count} ${what}: the network has room for 0 to 10.`);
  }
  removeNetwork(options);
  const bridge = `${options.name}-br`;
  const gateway = `${options.subnet}.1`;
  try {
    ip(['link', 'add', bridge, 'type', 'bridge']);
    ip(['addr', 'add', `${gateway}/24`, 'dev', bridge]);
    ip(['link', 'set', bridge, 'up']);
    for (const host of namespacesOf(options)) {
      ip(['netns', 'add', host.namespace]);
      ip(['link', 'add', host.veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', host.namespace]);
      ip(['link', 'set', host.veth, 'master', bridge, 'up']);
      ip(['-n', host.namespace, 'addr', 'add', `${host.address}/24`, 'dev', 'eth0']);
      ip(['-n', host.namespace, 'link', 'set', 'eth0', 'up']);
      ip(['-n', host.namespace, 'link', 'set', 'lo', 'up']);
    }
  } catch (error) {
    removeNetwork(options);
    throw error;
  }
  return {
    gateway,
    hosts: hostsOf(options, 'worker').map(addressOnly),
    serverHosts: hostsOf(options, 'server').map(addressOnly),
    remove: () => removeNetwork(options),
  };
}
