// `npm test` (scripts/test.js) runs the checks beside the suite: with real child processes standing in
// for them, it passes only when all pass, a failing check stops a suite that is still running and shows
// what the check printed, and a failing suite fails it too.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { sideBySide, vitestBin, type Command } from '../../scripts/test.js';

const node = (code: string): Command => ({ command: process.execPath, args: ['-e', code] });

function recorder() {
  const lines: string[] = [];
  return { lines, write: (text: string) => void lines.push(text) };
}

describe('npm test side by side (scripts/test.js)', () => {
  it('passes when the suite and every check pass, and says each check passed', async () => {
    const out = recorder();
    const code = await sideBySide({ suite: node('setTimeout(() => {}, 200)'), checks: [{ name: 'lint', ...node('') }, { name: 'typecheck', ...node('') }], write: out.write });
    expect(code).toBe(0);
    const text = out.lines.join('');
    expect(text).toMatch(/== lint: passed/);
    expect(text).toMatch(/== typecheck: passed/);
    expect(text).toMatch(/npm test: passed/);
  });

  it('a check that fails stops the suite at once and shows what the check printed', async () => {
    const out = recorder();
    const started = Date.now();
    const code = await sideBySide({
      suite: node('setTimeout(() => {}, 60_000)'),
      checks: [{ name: 'lint', ...node('console.error("src/x.ts: 3 problems"); process.exit(2)') }, { name: 'typecheck', ...node('') }],
      write: out.write,
    });
    expect(code).toBe(1);
    // The suite would have run a minute.
    expect(Date.now() - started).toBeLessThan(20_000);
    const text = out.lines.join('');
    expect(text).toMatch(/== lint FAILED \(exit code 2[^)]*\); the test suite is stopped:\nsrc\/x\.ts: 3 problems/);
    expect(text).toMatch(/npm test: FAILED/);
  });

  it('fails when the suite fails, though every check passed', async () => {
    const out = recorder();
    const code = await sideBySide({ suite: node('process.exit(1)'), checks: [{ name: 'lint', ...node('') }], write: out.write });
    expect(code).toBe(1);
    expect(out.lines.join('')).toMatch(/npm test: FAILED/);
  });

  it("finds vitest's command-line entry (its package exports no path to it)", () => {
    expect(vitestBin()).toMatch(/node_modules\/vitest\/vitest\.mjs$/);
    expect(existsSync(vitestBin())).toBe(true);
  });
});
