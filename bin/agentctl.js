#!/usr/bin/env node
// The agentctl entry point. Installed from the package, it runs the compiled CLI in dist/ (no tsx).
// In a checkout of this repository, where src/ sits beside bin/, it runs the TypeScript sources
// through tsx instead, so a change to the CLI needs no build step (and a stale dist/ is never used).
const { existsSync } = require('node:fs');
const path = require('node:path');

const source = path.join(__dirname, '..', 'src', 'cli', 'cli.ts');
let cli;
if (existsSync(source)) {
  require('tsx/cjs');
  cli = require(source);
} else {
  cli = require('../dist/cli/cli.js');
}

cli.main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
