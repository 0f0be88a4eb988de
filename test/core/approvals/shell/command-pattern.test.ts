import { describe, expect, it } from 'vitest';
import { parseCommandPattern } from '../../../../src/runtime/shell/analyze-shell';
import { InvalidCommandPatternError } from '../../../../src/core/approvals/shell/errors';
import { CommandPatternSchema } from '../../../../src/contract/shell-analysis';

async function refusal(pattern: string): Promise<InvalidCommandPatternError> {
  const error = await parseCommandPattern(pattern).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(InvalidCommandPatternError);
  return error as InvalidCommandPatternError;
}

describe('parseCommandPattern', () => {
  it('splits a rule into words the way the shell would', async () => {
    expect(await parseCommandPattern('rm -rf /')).toEqual({ pattern: 'rm -rf /', words: ['rm', '-rf', '/'] });
    expect((await parseCommandPattern(`  rm   -rf  "/"  `)).words).toEqual(['rm', '-rf', '/']);
    expect((await parseCommandPattern(`git commit -m 'a b'`)).words).toEqual(['git', 'commit', '-m', 'a b']);
    expect(CommandPatternSchema.parse(await parseCommandPattern('npm run test*'))).toEqual({ pattern: 'npm run test*', words: ['npm', 'run', 'test*'] });
  });

  it('reads declarations and test brackets as commands, since the analyzer lists them that way', async () => {
    expect((await parseCommandPattern('export NODE_ENV=test')).words).toEqual(['export', 'NODE_ENV=test']);
    expect((await parseCommandPattern('unset *')).words).toEqual(['unset', '*']);
    expect((await parseCommandPattern('[ -f package.json ]')).words).toEqual(['[', '-f', 'package.json', ']']);
  });

  it('keeps an unquoted * as the wildcard', async () => {
    expect((await parseCommandPattern('ls *.txt *')).words).toEqual(['ls', '*.txt', '*']);
  });

  it('refuses more than one command, naming the pattern and the fix', async () => {
    const error = await refusal('ls; rm x');
    expect(error.name).toBe('InvalidCommandPatternError');
    expect(error.pattern).toBe('ls; rm x');
    expect(error.message).toMatch(/^Invalid shell command pattern "ls; rm x": .*more than one command.*one rule per command/);
    for (const pattern of ['ls && rm x', 'ls | grep x', 'ls\nrm x']) expect((await refusal(pattern)).message).toMatch(/more than one command/);
  });

  it('refuses an empty pattern', async () => {
    expect((await refusal('')).message).toMatch(/is empty/);
    expect((await refusal('   # just a comment')).message).toMatch(/is empty/);
  });

  it('refuses words the shell would expand', async () => {
    expect((await refusal('echo $HOME')).message).toMatch(/"\$HOME" is expanded by the shell.*or \* for any word/);
    expect((await refusal('cat $(ls)')).message).toMatch(/expanded/);
    expect((await refusal('ls ~/x')).message).toMatch(/expanded/);
  });

  it('refuses the other glob characters, which are not wildcards in rules', async () => {
    expect((await refusal('ls a?c')).message).toMatch(/only \* is a wildcard/);
    expect((await parseCommandPattern("ls 'a?c'")).words).toEqual(['ls', 'a?c']);
  });

  it('refuses assignments, redirections, compound commands and bad syntax', async () => {
    expect((await refusal('FOO=1 ls')).message).toMatch(/sets a variable \(FOO=1\)/);
    expect((await refusal('echo x > f')).message).toMatch(/redirection/);
    expect((await refusal('(ls)')).message).toMatch(/not a simple command but a subshell/);
    expect((await refusal('ls ((')).message).toMatch(/not valid shell syntax/);
  });
});
