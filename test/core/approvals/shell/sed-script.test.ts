// The sed script reader on its own: what it finds, and that it refuses what it cannot read.
import { describe, expect, it } from 'vitest';
import { sedScriptProblem } from '../../../../src/core/approvals/shell/sed-script';

describe('sedScriptProblem', () => {
  it.each([
    ['1e id', /e command/],
    ['e', /e command/],
    ['$!N;e', /e command/],
    ['/a/,/b/ !e id', /e command/],
    ['\\%x%e id', /e command/],
    ['0~3e id', /e command/],
    ['s/a/b/e', /flag e/],
    ['s/a/b/gIe', /flag e/],
    ['s,a\\,b,c,2e', /flag e/],
    ['y/a/b/;s/x/y/;e', /e command/],
    ['{\n/x/{\ne id\n}\n}', /e command/],
    ['w out.txt', /writes the file "out.txt"/],
    ['s/a/b/w /tmp/x', /writes the file "\/tmp\/x"/],
    ['W /tmp/x', /writes/],
    ['s/a/b', /unterminated/],
    ['y/a/', /unterminated/],
    ['k', /not a sed command/],
    ['p x', /unexpected "x"/],
    ['/unterminated', /unterminated/],
    ['1,', /no end/],
  ])('finds %j', (script, problem) => {
    expect(sedScriptProblem(script)).toMatch(problem);
  });

  it.each([
    'p', '1d', '$=', 's/e/E/g', 's/x/y/w /dev/stdout', 's|/|\\||g', 'y/abc/xyz/', '/^#/d;s/ *$//',
    '1i\\\nheader with e id', 'a text; e id', 'c\\', ':a;N;$!ba;s/\\n/ /g', 'r file; e id', '#n\np', '1~2{p;q}',
    '0,/re/s//x/', "/x/I,+3 d", 'l 40', 'Q 3', 'z;F;v 4.2',
  ])('reads %j as harmless', (script) => {
    expect(sedScriptProblem(script)).toBeUndefined();
  });
});
