// Runs the real `agentctl` binary (bin/agentctl.js) as a child process, as a person would, so the
// tests cover argument parsing, exit codes and what reaches stdout and stderr. In a suite run it is the
// binary beside src/ compiled once (support/compiled-agentctl.ts), as in an installed package; a file
// run without the suite's setup runs the checkout's own, through tsx.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { TEST_AGENTCTL_ENV } from '../support/compiled-agentctl';

/** The checkout's bin/agentctl.js, which runs src/ through tsx. */
export const CHECKOUT_AGENTCTL = path.join(__dirname, '..', '..', 'bin', 'agentctl.js');
const BIN = process.env[TEST_AGENTCTL_ENV] ?? CHECKOUT_AGENTCTL;

export interface CliRun {
  child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches `pattern`; rejects if the process exits first or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code and all output. */
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

export function startAgentctl(args: string[], env: NodeJS.ProcessEnv, input?: string): CliRun {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    listeners.forEach((l) => l());
  });
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  if (input !== undefined) child.stdin!.end(input);
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => {
      listeners.forEach((l) => l());
      resolve({ code, stdout: out, stderr: err });
    }),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    done,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(out)) return finish(resolve);
          if (child.exitCode !== null) finish(() => reject(new Error(`agentctl exited before printing ${pattern}:\n${out}\n${err}`)));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`agentctl did not print ${pattern} within ${timeoutMs} ms:\n${out}\n${err}`))), timeoutMs);
        const finish = (then: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          then();
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** Runs agentctl to the end. */
export function agentctl(args: string[], env: NodeJS.ProcessEnv, input = '') {
  return startAgentctl(args, env, input).done;
}
