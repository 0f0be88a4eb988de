#!/usr/bin/env node
'use strict';
// `npm run api:baseline`: makes the API as it is now the one later changes are checked against
// (scripts/api-compat.ts, part of `npm run api:check`). Run it when a release is cut, or with a new
// major version that breaks callers on purpose (and say so in CHANGELOG.md); never to silence the check.
const { cpSync, mkdirSync, readdirSync, rmSync } = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const rollups = path.join(root, '.scratch', 'api', 'rollup');
const baseline = path.join(root, 'api', 'baseline');
rmSync(baseline, { recursive: true, force: true });
mkdirSync(baseline, { recursive: true });
for (const file of readdirSync(rollups).filter((f) => f.endsWith('.d.ts'))) cpSync(path.join(rollups, file), path.join(baseline, file));
console.log(`API baseline written to ${path.relative(root, baseline)}/ (${readdirSync(baseline).join(', ')}).`);
