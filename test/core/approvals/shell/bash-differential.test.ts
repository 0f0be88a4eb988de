// The analyzer against the shell that runs the commands: generated lines mixing quotes, escapes,
// expansions, here-documents and separators around `rm -f canary` go through real bash (with a
// stub `rm` that only leaves a mark) and through the analyzer. A line where bash ran rm while the
// analysis neither lists rm nor asks a person is a bypass. Run under dash, the analyzer before issue
// 18 fails this test on the first bypass.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { programName } from '../../../../src/core/approvals/shell/command-wrappers';
import type { ShellAnalysis } from '../../../../src/contract/shell-analysis';
import { hostileCommands } from './hostile-corpus';
import { analyze } from './shell-test-helpers';

const PIECES = [
  'rm -f canary', 'echo a', "'", '"', '\\', '\n', '\\\n', ';', '&&', '|', '#', "$'", '${x-', '}', '$(', ')', '`', '<<EOF', 'EOF',
  '<<-EOF', '\t', "'\\''", '$"', '{', '(', '[[', ']]', '((', '))', '!', '&', '>', '<', 'x=1', '$x', "\\'", '\\"', 'case x in x)',
  ';;', 'esac', 'do', 'done', 'for i in 1;', 'if true;', 'then', 'fi', '<<<', '2>&1', '|&', '$((', '*', '?', '~', '-', '--', '=',
  ':', 'a#b', '\\ ', "''", '""', '$', '{ ', '; }', '\\\\',
];

/** A small seeded generator, so a failure names a line that comes back on every run. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generatedLines(count: number): string[] {
  const random = generator(18);
  const pick = () => PIECES[Math.floor(random() * PIECES.length)]!;
  return Array.from({ length: count }, () => {
    const parts = Array.from({ length: 3 + Math.floor(random() * 8) }, pick);
    if (!parts.includes('rm -f canary')) parts.splice(Math.floor(random() * parts.length), 0, 'rm -f canary');
    return parts.map((part) => (random() < 0.5 ? ` ${part}` : part)).join('');
  });
}

describe('the analyzer read against real bash', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'bash-differential-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('never lets a line through that runs a program it did not list', async () => {
    const bin = path.join(root, 'bin');
    const marks = path.join(root, 'marks');
    mkdirSync(bin);
    mkdirSync(marks);
    writeFileSync(path.join(bin, 'rm'), `#!/bin/sh\necho ran >> "${marks}/$LINE"\n`);
    chmodSync(path.join(bin, 'rm'), 0o755);
    // The corpus's parsing tricks first (bypasses 1 and 2 and the variants; not the wrappers, which
    // would run sudo, systemd-run and the like for real), then the generated lines.
    const tricks = hostileCommands.filter((entry) => entry.command !== undefined && (entry.bypass === null || entry.bypass <= 2));
    const lines = [...tricks.map((entry) => entry.command!), ...generatedLines(1_500)];
    lines.forEach((line, index) => {
      try {
        execFileSync('bash', ['--noprofile', '--norc', '-c', '--', line], { cwd: root, env: { PATH: `${bin}:/usr/bin:/bin`, LINE: String(index) }, stdio: 'ignore', timeout: 3_000 });
      } catch {
        // Most generated lines are not valid shell; what matters is whether rm ran.
      }
    });
    const analyses: ShellAnalysis[] = [];
    for (const line of lines) analyses.push(await analyze(line, root));
    // Background jobs (`rm ... &`) may finish after bash exits.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const bypasses = lines.filter((_, index) => {
      const analysis = analyses[index]!;
      const listed = analysis.commands.some((command) => command.words.some((word) => word.literal && programName(word) === 'rm'));
      return existsSync(path.join(marks, String(index))) && analysis.understood && !listed;
    });
    expect(bypasses).toEqual([]);
    // The generator must reach bash's rm often enough for the comparison to mean something.
    expect(lines.filter((_, index) => existsSync(path.join(marks, String(index)))).length).toBeGreaterThan(50);
  }, 120_000);
});
