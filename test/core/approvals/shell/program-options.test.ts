// The table of options that run a program, read through the whole analyzer: every row has lines
// that must ask (with the reason naming the option) and ordinary uses that must stay understood.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROGRAM_ROWS } from '../../../../src/core/approvals/shell/program-options';
import { PROGRAM_OPTION_CASES } from './program-option-cases';
import { analyze, reasons } from './shell-test-helpers';

const asks = Object.entries(PROGRAM_OPTION_CASES).flatMap(([program, cases]) => cases.asks.map(([line, problem]) => [program, line, problem] as const));
const understood = Object.entries(PROGRAM_OPTION_CASES).flatMap(([program, cases]) => cases.understood.map((line) => [program, line] as const));

describe('options that run a program', () => {
  it.each(asks)('%s: %j asks', async (_program, line, problem) => {
    const analysis = await analyze(line);
    expect(analysis.understood, line).toBe(false);
    // The reason, without the excerpt of the line it quotes: the option must be named by the reason itself.
    expect(reasons(analysis.problems)).toMatch(problem);
  });

  it.each(understood)('%s: %j stays understood', async (_program, line) => {
    const analysis = await analyze(line);
    expect(analysis.problems).toEqual([]);
  });

  it.each(PROGRAM_ROWS.map((row) => [row.programs[0]!, row] as const))('%s: every option and word rule of its row has a case that asks for it', async (program, row) => {
    const cases = PROGRAM_OPTION_CASES[program];
    expect(cases, `no cases for the row of ${program}`).toBeDefined();
    const said = reasons((await Promise.all(cases!.asks.map(([line]) => analyze(line)))).flatMap((analysis) => analysis.problems));
    for (const option of row.options ?? []) expect(said, `${program} ${option.names.join('/')}`).toContain(option.why);
    for (const word of row.words ?? []) expect(said, `${program} ${word.pattern}`).toContain(word.why);
    if (row.always !== undefined) expect(said).toContain(row.always);
    if (row.stdin !== undefined) expect(said).toContain('reads its program from standard input');
  });

  it.each(PROGRAM_ROWS.flatMap((row) => Object.entries(row.subcommands ?? {}).map(([subcommand, why]) => [row.programs[0]!, subcommand, why] as const)))(
    '%s %s asks',
    async (program, subcommand, why) => {
      const analysis = await analyze(`${program} ${subcommand} x`);
      expect(reasons(analysis.problems)).toContain(`${program} ${subcommand} ${why}`);
    },
  );

  it('is shown in docs/guides/security.md, one row or mention per program of the table', () => {
    const guide = readFileSync(path.join(__dirname, '../../../../docs/guides/security.md'), 'utf8');
    const section = guide.slice(guide.indexOf('## Options that run a program'), guide.indexOf('## Who let a call run'));
    const missing = PROGRAM_ROWS.map((row) => row.programs[0]!).filter((program) => !section.includes(`\`${program}\``));
    expect(missing).toEqual([]);
  });

  it('reads a versioned interpreter name as the interpreter (python3.11, perl5.36)', async () => {
    expect((await analyze("python3.11 -c 'x'")).understood).toBe(false);
    expect((await analyze("/usr/bin/perl5.36 -e 'x'")).understood).toBe(false);
    expect((await analyze('python3.11 -m json.tool x')).understood).toBe(true);
  });
});
