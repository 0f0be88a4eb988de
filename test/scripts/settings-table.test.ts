// The README's configuration table is generated from the settings catalog; these keep the two equal
// and the catalog complete (every variable the worker's schema reads, every one the code names).
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/runtime/config/settings-catalog';
import { SETTING_VARIABLES } from '../../src/runtime/config/worker-settings';
import { README, settingsTable, withSettingsTable } from '../../scripts/settings-table';

const repoRoot = path.resolve(__dirname, '../..');

describe('the README configuration table', () => {
  it('is the table `npm run settings:table` writes (run it after changing src/runtime/config/settings-catalog.ts)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(readme).toContain(settingsTable());
    expect(withSettingsTable(readme)).toBe(readme);
  });

  it('lists every variable the worker settings schema reads', () => {
    const listed = new Set(SETTINGS.map((s) => s.name));
    expect(Object.values(SETTING_VARIABLES).filter((name) => !listed.has(name))).toEqual([]);
  });

  it('lists every AGENT_*, TEMPORAL_* and ANTHROPIC_* variable named in src/ and scripts/start.ts', () => {
    // Names the code reads from the environment, found in the source text (constants that are not variables excluded).
    const text = execFileSync('grep', ['-rhoE', '\\b(AGENT|ANTHROPIC|TEMPORAL|START)_[A-Z0-9_]+', 'src', 'scripts/start.ts', 'scripts/start-codec-server.ts'], { cwd: repoRoot, encoding: 'utf8' });
    const notVariables = new Set(['TEMPORAL_BIN_VERSION', 'AGENT_RUN_WORKFLOW_TYPE', 'AGENT_CATALOG_WORKFLOW_TYPE', 'AGENT_SEARCH_ATTRIBUTES', 'START_EXIT_AFTER_RUN', 'START_DEMO_DELAY_MS', 'START_TIMEOUT_MS']);
    // The stable codes of named errors (`readonly code = 'TEMPORAL_UNREACHABLE'`) are not variables either.
    const codes = execFileSync('grep', ['-rhoE', "code = '[A-Z0-9_]+'", 'src'], { cwd: repoRoot, encoding: 'utf8' }).split('\n').map((line) => line.slice("code = '".length, -1));
    for (const code of codes) notVariables.add(code);
    const named = new Set(text.split('\n').filter((name) => name && !name.endsWith('_') && !notVariables.has(name)));
    const known = (name: string) => SETTINGS.some((s) => (s.name.endsWith('*') ? name.startsWith(s.name.slice(0, -1)) : s.name === name));
    expect([...named].filter((name) => !known(name)).sort()).toEqual([]);
  });

  it('refuses a README without the markers, saying what to add', () => {
    expect(() => withSettingsTable('# no table here\n')).toThrow(/settings-table:begin/);
  });
});
