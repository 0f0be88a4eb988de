// `npm test` on a fresh machine: its pretest step installs the system programs the suite drives
// (bubblewrap, chromium, postgresql-15) or stops at once with the one command to run, never
// half-way through the suite. The "cannot install" path runs the real script as an unprivileged
// user, so apt-get is never actually called by this test.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'install-system-deps.js');

function runScript(args: string[], env: NodeJS.ProcessEnv, asNobody = false) {
  const command = asNobody ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath] : [process.execPath];
  const started = process.hrtime.bigint();
  const result = spawnSync(command[0]!, [...command.slice(1), SCRIPT, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return { ...result, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

describe('install-system-deps (npm test pretest)', () => {
  it('passes quietly when every package is already there', () => {
    const result = runScript([], {});
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('stops at once, naming the one command to run, when a package is missing and it cannot install', () => {
    const result = runScript(['chromium', 'postgresql'], { CHROMIUM_PATH: '/nonexistent/chromium', POSTGRES_BIN_DIR: '/nonexistent' }, true);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('apt-get update && apt-get install -y chromium postgresql-15');
    expect(result.stderr).toContain('CHROMIUM_PATH');
    // "In its first second": the refusal comes before any install attempt.
    expect(result.seconds).toBeLessThan(5);
  });

  it('refuses an unknown package name with the valid ones', () => {
    const result = runScript(['chrome'], {});
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('bubblewrap, chromium, postgresql');
  });
});
