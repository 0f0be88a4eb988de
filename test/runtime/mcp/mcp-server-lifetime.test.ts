// A stdio MCP server dies with its worker, even a server that ignores SIGTERM and the end of its
// stdin and leaves a process in a session of its own: the worker (pool-holder.ts) is SIGKILLed and
// every process it had started is gone soon after, in the sandbox and under the mode-none guard.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { TSX_LOADER } from './support/server-entries';

const HOLDER = path.join(__dirname, 'support', 'pool-holder.ts');

/** pid → [parent pid, state, command line] of every live process. */
function processTable(): Map<number, { ppid: number; state: string; cmdline: string }> {
  const table = new Map<number, { ppid: number; state: string; cmdline: string }>();
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces; the fields after it are fixed.
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
      table.set(Number(name), { ppid: Number(ppid), state: state!, cmdline });
    } catch {
      // Gone while we looked.
    }
  }
  return table;
}

function descendants(root: number): { pid: number; cmdline: string }[] {
  const table = processTable();
  const found: { pid: number; cmdline: string }[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [pid, p] of table) {
      if (p.ppid === parent) {
        found.push({ pid, cmdline: p.cmdline });
        queue.push(pid);
      }
    }
  }
  return found;
}

const alive = (pids: readonly number[]) => {
  const table = processTable();
  return pids.filter((pid) => table.has(pid) && table.get(pid)!.state !== 'Z');
};

async function until<T>(probe: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a stdio MCP server', () => {
  it.each([
    ['in the sandbox (bwrap --die-with-parent, its own PID namespace)', 'bwrap'],
    ['without bwrap (AGENT_SANDBOX=none: the child guard)', 'none'],
  ])('dies with the worker %s', async (_, mode) => {
    const workspace = await mkdtemp(path.join(tmpdir(), 'mcp-life-'));
    const holder = spawn(process.execPath, ['--import', TSX_LOADER, HOLDER, workspace, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    let pids: number[] = [];
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: holder.stdout }).once('line', resolve);
        holder.once('exit', (code) => reject(new Error(`the pool holder exited (${code}) before its server started`)));
      });
      const launcher = (JSON.parse(line) as { pid: number }).pid;
      // Wait for the lingering server to have left its `sleep` behind.
      const started = await until(() => {
        const tree = descendants(launcher);
        return tree.some((p) => p.cmdline === 'sleep 1000') ? tree : undefined;
      }, 10_000);
      expect(started, 'the probe server started its sleep').toBeDefined();
      pids = [launcher, ...started!.map((p) => p.pid)];

      holder.kill('SIGKILL');
      await exited;
      const survivors = await until(() => (alive(pids).length === 0 ? [] : undefined), 10_000);
      expect(survivors ?? alive(pids).map((pid) => `${pid} ${processTable().get(pid)?.cmdline}`)).toEqual([]);
    } finally {
      holder.kill('SIGKILL');
      // A failed run must not leave this test's processes behind.
      for (const pid of alive(pids)) process.kill(pid, 'SIGKILL');
    }
  });
});
