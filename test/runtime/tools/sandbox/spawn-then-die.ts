// Not a test: process-lifetime.test.ts starts this as a stand-in worker that dies the moment its
// command's launcher has been forked, before the launcher can ask the kernel to kill it with its
// parent. It prints the launcher's pid first. Usage: node --import tsx spawn-then-die.ts
// <bwrap|none|none-process-group> <workspace>, with LONG_COMMAND_MARKER set to a sleep duration
// unique to the test. none-process-group hides util-linux (an empty PATH), so the runner falls back
// to the process-group guard, where no launcher asks the kernel for a death signal at all.
import { readdirSync, readFileSync, writeSync } from 'node:fs';
import { createProcessRunner } from '../../../../src/runtime/tools/sandbox/process-runner';
import { resolveSandboxMode } from '../../../../src/runtime/tools/sandbox/sandbox-mode';

const [mode, workspace] = process.argv.slice(2);
const marker = process.env.LONG_COMMAND_MARKER;
if (!mode || !workspace || !marker) throw new TypeError('usage: spawn-then-die.ts <bwrap|none|none-process-group> <workspace> (LONG_COMMAND_MARKER set)');

const groupOnly = mode === 'none-process-group';
const runner = createProcessRunner({
  mode: resolveSandboxMode({ ...process.env, AGENT_SANDBOX: groupOnly ? 'none' : mode }),
  envAllowList: [],
  sourceEnv: groupOnly ? { PATH: workspace } : process.env,
});
if (groupOnly && runner.childGuard?.kind !== 'process-group') throw new Error(`expected the process-group guard, got ${JSON.stringify(runner.childGuard)}`);
const before = new Set(childPids());
// run() forks the launcher once it has scanned the workspace; the next turn of the event loop sees it.
void runner.run({ command: `/usr/bin/sleep ${marker} & /usr/bin/sleep ${marker}`, workspace, permission: { by: 'person', writes: true }, timeoutMs: 600_000, signal: new AbortController().signal, outputLimit: 1_000 });
const dieOnceForked = (): void => {
  const launcher = childPids().find((pid) => !before.has(pid));
  if (launcher === undefined) {
    setImmediate(dieOnceForked);
    return;
  }
  writeSync(1, `${launcher}\n`);
  process.kill(process.pid, 'SIGKILL');
};
dieOnceForked();

function childPids(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) =>
    readFileSync(`/proc/self/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
}
