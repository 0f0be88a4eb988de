#!/usr/bin/env node
// `npm run test:durations`: writes test/support/file-durations.json from vitest's own record of how long
// each test file took in the last run here (node_modules/.vite/vitest/*/results.json). The suite's
// sequencer (test/support/duration-sequencer.ts) starts the longest files first from that table, as
// vitest does from its record, which a fresh clone has not got. A stale table only changes the order.
const { readdirSync, readFileSync, writeFileSync, existsSync } = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const cache = path.join(root, 'node_modules', '.vite', 'vitest');
const out = path.join(root, 'test', 'support', 'file-durations.json');

const runs = existsSync(cache) ? readdirSync(cache).map((dir) => path.join(cache, dir, 'results.json')).filter(existsSync) : [];
if (runs.length === 0) {
  console.error(`No record of a vitest run in ${cache}: run npm test first.`);
  process.exit(1);
}
const durations = {};
for (const file of runs) {
  // vitest keeps [file, { duration, failed }] pairs.
  const results = JSON.parse(readFileSync(file, 'utf8')).results ?? [];
  for (const [key, result] of Array.isArray(results) ? results : Object.entries(results)) {
    const file = key.slice(key.indexOf(':') + 1);
    // Files that are gone, and the cluster drill (its own command), are left out.
    if (typeof result?.duration === 'number' && !file.includes('.cluster.test.') && existsSync(path.join(root, file))) durations[key] = Math.round(result.duration);
  }
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(out, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} files' durations written to ${path.relative(root, out)}`);
