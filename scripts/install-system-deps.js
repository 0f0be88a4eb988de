#!/usr/bin/env node
'use strict';
// Makes sure the system programs the tests (or `npm start`) drive for real are installed:
// bubblewrap for the command sandbox, Chromium for the browser tests, PostgreSQL 15 for the
// conversation store and the cluster drill. On a fresh machine `npm test` must either install them
// or stop in its first second with the one command to run; failing half-way through an 8-minute
// suite is the worst of both. Plain Node with no dependencies, so it runs as `pretest` on a fresh clone.
//
// Usage: node scripts/install-system-deps.js [bubblewrap] [chromium] [postgresql] (default: all three)

const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { findOnPath, isExecutable } = require('./install-temporal.js');

/** What each package provides, and how we notice it is already there. */
const PACKAGES = {
  bubblewrap: { debian: 'bubblewrap', present: () => onPath('bwrap'), override: 'BWRAP_PATH' },
  chromium: {
    debian: 'chromium',
    present: () => isExecutable(process.env.CHROMIUM_PATH || '/usr/bin/chromium'),
    override: 'CHROMIUM_PATH',
  },
  postgresql: {
    debian: 'postgresql-15',
    present: () =>
      isExecutable(path.join(process.env.POSTGRES_BIN_DIR || '/usr/lib/postgresql/15/bin', 'initdb')),
    override: 'POSTGRES_BIN_DIR',
  },
};

class SystemDepsError extends Error {
  constructor(message) {
    super(message);
    this.name = 'SystemDepsError';
  }
}

function onPath(name) {
  return findOnPath(name) !== undefined;
}

/** How this process may run apt-get: directly as root, through passwordless sudo, or not at all. */
function aptRunner() {
  if (!onPath('apt-get')) return undefined;
  if (typeof process.getuid === 'function' && process.getuid() === 0) return [];
  // `sudo -n true` answers at once instead of prompting, so a machine without passwordless sudo
  // is told what to run rather than left waiting on a password prompt under a test runner.
  if (onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0) return ['sudo', '-n'];
  return undefined;
}

function aptGet(prefix, args) {
  const [command, ...rest] = prefix.length ? [...prefix, 'apt-get', ...args] : ['apt-get', ...args];
  const result = spawnSync(command, rest, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return result.status === 0;
}

function ensureSystemDeps(names) {
  const missing = names.filter((name) => !PACKAGES[name].present());
  if (missing.length === 0) return [];
  const debs = missing.map((name) => PACKAGES[name].debian);
  const command = `apt-get update && apt-get install -y ${debs.join(' ')}`;
  const prefix = aptRunner();
  if (prefix === undefined) {
    const overrides = missing.map((name) => PACKAGES[name].override).join(', ');
    throw new SystemDepsError(
      `Missing system packages: ${debs.join(', ')}. This user cannot install them (not root, no passwordless sudo, ` +
        `or no apt-get). Run as root: ${command}\n(Elsewhere install the equivalent packages, or point ${overrides} at existing binaries.)`,
    );
  }
  process.stderr.write(`Installing ${debs.join(', ')} (${command}) ...\n`);
  if (!aptGet(prefix, ['update']) || !aptGet(prefix, ['install', '-y', '--no-install-recommends', ...debs])) {
    throw new SystemDepsError(`Installing ${debs.join(', ')} failed (see apt-get's output above). Fix that and run: ${command}`);
  }
  const still = missing.filter((name) => !PACKAGES[name].present());
  if (still.length) {
    throw new SystemDepsError(`apt-get finished but ${still.map((n) => PACKAGES[n].debian).join(', ')} is still not usable.`);
  }
  return debs;
}

module.exports = { ensureSystemDeps, SystemDepsError, PACKAGES };

if (require.main === module) {
  const requested = process.argv.slice(2);
  const unknown = requested.filter((name) => !(name in PACKAGES));
  if (unknown.length) {
    process.stderr.write(`Unknown package ${unknown.join(', ')}; choose from ${Object.keys(PACKAGES).join(', ')}.\n`);
    process.exit(2);
  }
  try {
    ensureSystemDeps(requested.length ? requested : Object.keys(PACKAGES));
  } catch (err) {
    process.stderr.write(`${err instanceof SystemDepsError ? err.message : err.stack}\n`);
    process.exit(1);
  }
}
