// Shared pieces of the sandbox tests: runners for each mode and ways to look at the host from outside.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { createProcessRunner, type ProcessRunner, type ProcessRunSpec } from '../../../../src/runtime/tools/sandbox/process-runner';
import { resolveSandboxMode } from '../../../../src/runtime/tools/sandbox/sandbox-mode';

/** Variables a worker really has; none of them may reach a tool. */
export const workerSecrets = {
  ANTHROPIC_API_KEY: 'sk-ant-test-must-not-leak',
  TEMPORAL_ADDRESS: 'temporal.internal:7233',
  [`SECRET_${Math.random().toString(36).slice(2, 10).toUpperCase()}`]: 'random-secret-value',
};

/** A runner in the given mode whose worker environment holds the secrets plus one allowed variable. */
export function runnerFor(mode: 'bwrap' | 'none', sandboxUser?: string): ProcessRunner {
  const sourceEnv = { ...process.env, ...workerSecrets, TOOL_ALLOWED: 'allowed-value', TOOL_EXTRA: 'extra-value' };
  return createProcessRunner({
    // Explicit, so a host without a working bwrap fails these tests instead of skipping them.
    mode: resolveSandboxMode({ ...process.env, AGENT_SANDBOX: mode }),
    envAllowList: ['TOOL_ALLOWED'],
    sourceEnv,
    // As root: who commands run as (default nobody); a test of process counts takes a uid of its own.
    sandboxUser,
  });
}

/** A person approved the call: the workspace is writable, protected paths too. */
export const PERSON_APPROVED = { by: 'person', writes: true } as const;
/** An allow rule that grants writes: the workspace is writable, protected paths are not. */
export const RULE_WRITES = { by: 'rule', writes: true } as const;
/** An allow rule without writes (what an absent permission means): the workspace is read-only. */
export const RULE_READS = { by: 'rule', writes: false } as const;

/** The defaults of one run, so each test states only what it is about (no permission: read-only). */
export function runIn(runner: ProcessRunner, workspace: string, command: string, extra: Partial<ProcessRunSpec> = {}) {
  return runner.run({ command, workspace, timeoutMs: 20_000, signal: new AbortController().signal, outputLimit: 20_000, ...extra });
}

/** A TCP server on 127.0.0.1 that answers every connection with "hello"; resolves to it and its port. */
export async function helloServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    // A client that goes away first (a probe killed by its timeout) resets the connection; that is
    // the client's business, not an error of the test process.
    socket.on('error', () => undefined);
    socket.end('hello\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new TypeError('server has no port');
  return { server, port: address.port };
}

/** PIDs of live host processes whose command line contains `marker` (zombies have none). */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(marker)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** Polls `check` every 100 ms until it holds or `timeoutMs` passes; returns whether it held. */
export async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Resolves once `flock -n` can take the file's lock, i.e. its holder has exited; fails after 10 s. */
export async function lockFreed(file: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (spawnSync('flock', ['-n', file, 'true']).status !== 0) {
    if (Date.now() > deadline) throw new Error(`${file} is still locked: the process holding it was not killed`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether any process of the uid is alive (zombies included: they still count against RLIMIT_NPROC). */
export function hasProcessesOf(uid: number): boolean {
  return readdirSync('/proc').some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      return new RegExp(`^Uid:\\s+${uid}\\s`, 'm').test(readFileSync(`/proc/${entry}/status`, 'utf8'));
    } catch {
      return false;
    }
  });
}
