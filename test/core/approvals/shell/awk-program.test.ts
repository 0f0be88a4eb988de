// The awk program reader on its own: what runs a command or writes a file, and what is only text.
import { describe, expect, it } from 'vitest';
import { awkProgramProblem } from '../../../../src/core/approvals/shell/awk-program';

describe('awkProgramProblem', () => {
  it.each([
    ['BEGIN { system("id") }', /system/],
    ['{ s = "system" }', /system/],
    ['{ print | "sort" }', /pipe/],
    ['{ "date" | getline d }', /pipe/],
    ['{ print |& "cat" }', /pipe/],
    ['@include "x.awk"', /@/],
    ['{ print > "out" }', /writes a file/],
    ['{ printf("%s\\n", $1) >> $2 }', /writes a file/],
    ['{ print > "/dev/stderr" > "out" }', /writes a file/],
    ['{ a = NR /2; print | "id"; b = 1/ 2 }', /pipe/],
    ['{ x = length($0) / 2 } { print | "id" } { y = 1 / 2 }', /pipe/],
    ['BEGIN { if (1) /"/; print | "id"; x = "/" }', /pipe/],
    ['{ print "unterminated }', /unterminated/],
    ['/[\\]/] { print }', /backslash/],
    ['{ a & b }', /not awk syntax/],
  ])('finds %j', (program, problem) => {
    expect(awkProgramProblem(program)).toMatch(problem);
  });

  it.each([
    '{ print $1 }', '$3 > 100 { print $1 }', '/a|b/ { n++ } END { print n }', '{ s = s "|" $1 } END { print s }',
    'NR % 2 == 0', '{ print $1 > "/dev/stderr" }', '{ print ($1 > $2) }', '$1 ~ /[/]x|y/', '{ x = $1 / 2 }',
    'a || b', '# a comment with | in it\n{ print }', '{ print "a\\"|b" }', '/[[:alpha:]/]+/ { print }',
    'function f(a) { return a / 2 } { print f($1) }', '{ while ((getline line < "file") > 0) n++ } END { print n }',
  ])('reads %j as harmless', (program) => {
    expect(awkProgramProblem(program)).toBeUndefined();
  });
});
