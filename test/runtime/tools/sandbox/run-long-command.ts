// Not a test: process-lifetime.test.ts starts this as a stand-in worker process. It starts one long
// command through a process runner and waits; the test SIGKILLs it and checks what survives.
// Usage: node --import tsx run-long-command.ts <bwrap|none> <workspace>, with LONG_COMMAND_MARKER
// set to a sleep duration unique to the test (kept out of argv so this process never matches it).
import { createProcessRunner } from '../../../../src/runtime/tools/sandbox/process-runner';
import { resolveSandboxMode } from '../../../../src/runtime/tools/sandbox/sandbox-mode';

const [mode, workspace] = process.argv.slice(2);
const marker = process.env.LONG_COMMAND_MARKER;
if (!workspace || !marker) throw new TypeError('usage: run-long-command.ts <bwrap|none> <workspace> (LONG_COMMAND_MARKER set)');

const runner = createProcessRunner({
  mode: resolveSandboxMode({ ...process.env, AGENT_SANDBOX: mode }),
  envAllowList: [],
  sourceEnv: process.env,
});
// A background job, one that left the process group (setsid), and the foreground command.
void runner.run({
  command: `sleep ${marker} & setsid sleep ${marker} & sleep ${marker}; echo finished`,
  workspace,
  // A person approved it: mode none runs nothing else.
  permission: { by: 'person', writes: true },
  timeoutMs: 600_000,
  signal: new AbortController().signal,
  outputLimit: 1_000,
});
