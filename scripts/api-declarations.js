#!/usr/bin/env node
// `npm run api:check` and `api:update`: the package's .d.ts files, as `npm run build` would emit them
// into dist/, emitted into .scratch/api/dist/ instead (declarations only: api-extractor reads nothing
// else). Not dist/ itself: `npm test` runs the API check beside the test files, and the package tests'
// `npm pack` rebuilds dist/ from scratch (scripts/build.js) at the same time.
const { execFileSync } = require('node:child_process');
const { rmSync } = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const out = path.join(root, '.scratch', 'api', 'dist');

rmSync(out, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json'), '--emitDeclarationOnly', '--outDir', out], { cwd: root, stdio: 'inherit' });
