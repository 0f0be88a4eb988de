#!/usr/bin/env node
// `npm run build` (and `npm pack`, through `prepack`): compiles src/ into dist/ with tsconfig.build.json,
// from a clean dist/ so no file of a deleted source survives into the tarball, then copies what tsc
// does not emit: the console's browser files (plain JavaScript and CSS served as they are), and the
// Bash grammar's WebAssembly with its license (see src/core/approvals/shell/bash-parser.ts: the
// package ships this one file of tree-sitter-bash rather than depending on all of it).
const { execFileSync } = require('node:child_process');
const { cpSync, rmSync } = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const dist = path.join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
const grammar = path.dirname(require.resolve('tree-sitter-bash/package.json'));
const shell = path.join(dist, 'core', 'approvals', 'shell');
cpSync(path.join(grammar, 'tree-sitter-bash.wasm'), path.join(shell, 'tree-sitter-bash.wasm'));
cpSync(path.join(grammar, 'LICENSE'), path.join(shell, 'tree-sitter-bash.LICENSE'));
cpSync(path.join(root, 'src', 'console', 'public'), path.join(dist, 'console', 'public'), {
  recursive: true,
  filter: (source) => path.basename(source) !== 'README.md',
});
