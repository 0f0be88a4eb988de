// The table of options that run a program, read through the whole analyzer: every row has lines
// that must ask (with the reason naming the option) and ordinary uses that must stay understood.
import { describe, expect, it } from 'vitest';
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
});
