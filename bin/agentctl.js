#!/usr/bin/env node
// The agentctl entry point: loads the TypeScript sources through tsx, so no build step is needed.
require('tsx/cjs');
const { main } = require('../src/cli/cli.ts');

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
