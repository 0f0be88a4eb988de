#!/usr/bin/env node
'use strict';
// `npm start` entry. Plain JavaScript so it runs on a fresh clone: it installs the npm dependencies
// if they are missing, then loads scripts/start.ts through tsx in this same process (one process, so
// Ctrl-C reaches one signal handler). The Temporal CLI is installed on demand by the dev server
// launcher (scripts/install-temporal.js).
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

function installed(moduleName) {
  try {
    require.resolve(moduleName, { paths: [root] });
    return true;
  } catch {
    return false;
  }
}

if (!installed('tsx/cjs') || !installed('@temporalio/worker')) {
  process.stdout.write('Installing npm dependencies (first start)...\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write('`npm install` failed; fix the error above and run `npm start` again.\n');
    process.exit(1);
  }
}

// The command sandbox needs bubblewrap; install it when this user can (root or passwordless sudo).
// Without it commands still run, in the weaker fallback the worker describes at start.
try {
  require('./install-system-deps.js').ensureSystemDeps(['bubblewrap']);
} catch (error) {
  process.stderr.write(`${error.message}\n`);
}

require('tsx/cjs');
const { main } = require('./start.ts');

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
