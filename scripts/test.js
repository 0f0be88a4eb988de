#!/usr/bin/env node
// `npm test`: ESLint, the type check and the public API check (`npm run lint`, `typecheck`, `api:check`)
// beside the test suite (`vitest run`, with any arguments given), not before it. The suite spends much
// of its time waiting on real timers, servers and installs (a vitest run keeps 1.8 of the 2 cores busy,
// not 2: bench/results/suite.md), and the checks' 45 s of CPU fit in what it leaves: they run at a lower
// CPU priority (nice 10), so they take only that, and the suite's timing is left as it was. The suite's output
// streams as it comes; each check's is shown when it ends. A check that fails stops the suite at once,
// and `npm test` fails if anything did.
const { spawn } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');
const CHECKS = ['lint', 'typecheck', 'api:check'];

/**
 * Runs a command; resolves with its exit code and, when `quiet`, its output. `nice`: at a lower CPU
 * priority (inherited by what it starts), so it takes only what the suite leaves idle.
 */
function run({ command, args }, quiet, nice = false) {
  const child = spawn(command, args, { cwd: root, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  if (nice && child.pid !== undefined) {
    try {
      // Before npm (or whatever runs) has started anything of its own: its children inherit it.
      os.setPriority(child.pid, 10);
    } catch {
      // Not allowed here: the check runs at the suite's priority, as it would have.
    }
  }
  const output = [];
  if (quiet) {
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
  }
  const done = new Promise((resolve) => {
    child.on('error', (error) => resolve({ code: 1, output: `${command} could not start: ${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(output).toString() }));
  });
  return { child, done };
}

/**
 * Runs `suite` (its output inherited) and every check (output kept, written once it ends) at the same
 * time. The first check to fail stops the suite (SIGTERM). Resolves with 0 when all passed, else 1.
 */
async function sideBySide({ suite, checks, write = (text) => process.stdout.write(text) }) {
  const started = Date.now();
  const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const running = run(suite, false);
  let failed = false;
  const stopSuite = () => {
    if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGTERM');
  };
  const checking = checks.map((check) => {
    const handle = run(check, true, true);
    void handle.done.then(({ code, output }) => {
      if (code === 0) return write(`\n== ${check.name}: passed (${seconds()} after the start)\n`);
      failed = true;
      write(`\n== ${check.name} FAILED (exit code ${code}, ${seconds()} after the start); the test suite is stopped:\n${output}\n`);
      stopSuite();
    });
    return handle;
  });
  // Ctrl-C stops everything; vitest then stops its workers and the dev server itself.
  const forward = (signal) => () => {
    failed = true;
    stopSuite();
    for (const handle of checking) handle.child.kill(signal);
  };
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  try {
    const [result] = await Promise.all([running.done, ...checking.map((handle) => handle.done)]);
    if (result.code !== 0) failed = true;
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
  write(`\n== npm test: ${failed ? 'FAILED' : 'passed'} in ${seconds()} (${checks.map((c) => c.name).join(', ')} and the suite side by side)\n`);
  return failed ? 1 : 0;
}

/** `npm run -s <script>` with the npm that runs this script (or the one on PATH). */
function npmRun(script) {
  const cli = process.env.npm_execpath;
  const args = ['run', '-s', script];
  return { name: `npm run ${script}`, ...(cli && /\.c?js$/.test(cli) ? { command: process.execPath, args: [cli, ...args] } : { command: 'npm', args }) };
}

/** vitest's command-line entry (its package exports no path to it; its `bin` names it). */
function vitestBin() {
  const manifest = require.resolve('vitest/package.json');
  return path.join(path.dirname(manifest), require(manifest).bin.vitest);
}

module.exports = { sideBySide, vitestBin };

if (require.main === module) {
  void sideBySide({
    suite: { command: process.execPath, args: [vitestBin(), 'run', ...process.argv.slice(2)] },
    checks: CHECKS.map(npmRun),
  }).then((code) => (process.exitCode = code));
}
