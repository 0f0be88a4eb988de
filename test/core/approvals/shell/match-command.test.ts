import { describe, expect, it } from 'vitest';
import { commandMatches, describeCommand, describePattern } from '../../../../src/core/approvals/shell/match-command';
import type { ShellWord, SimpleCommand } from '../../../../src/contract/shell-analysis';
import { RM_RF_ROOT_VARIANTS } from './shell-cases';
import { analyze, ruleMatchesLine } from './shell-test-helpers';

const allows = (rule: string, line: string) => ruleMatchesLine(rule, line, 'allow');
const rejects = (rule: string, line: string) => ruleMatchesLine(rule, line, 'reject');

describe('commandMatches', () => {
  describe("mode 'reject'", () => {
    it.each(RM_RF_ROOT_VARIANTS)('catches %j with the rule `rm -rf /`', async (line) => {
      expect(await rejects('rm -rf /', line)).toBe(true);
    });

    it('does not catch a different operand, a missing flag or a different program', async () => {
      expect(await rejects('rm -rf /', 'rm -rf /tmp/x')).toBe(false);
      expect(await rejects('rm -rf /', 'rm -r /')).toBe(false);
      expect(await rejects('rm -rf /', 'rmdir /')).toBe(false);
      // Since issue 18 a reject rule catches its program anywhere in the words (`setsid rm`, `echo rm`).
      expect(await rejects('rm -rf /', 'echo rm -rf /')).toBe(true);
      expect(await rejects('rm -rf /', 'rm -- -rf /')).toBe(false);
    });

    it('accepts extra flags and words around the ones the rule names, in order', async () => {
      expect(await rejects('git push --force', 'git push origin main --force -v')).toBe(true);
      expect(await rejects('git push --force', 'git push -f')).toBe(true);
      expect(await rejects('git push origin main', 'git push main origin')).toBe(false);
    });

    it('ignores assignments', async () => {
      expect(await rejects('rm -rf /', 'LANG=C rm -rf /')).toBe(true);
    });

    it('does not match a computed word, except with a bare *', async () => {
      expect(await rejects('rm -rf /', 'rm -rf "$DIR"')).toBe(false);
      expect(await rejects('rm -rf *', 'rm -rf "$DIR"')).toBe(true);
    });

    it('catches a glob that could expand to the forbidden word', async () => {
      expect(await rejects('cat /etc/shadow', 'cat /etc/sha*')).toBe(true);
      expect(await rejects('cat /etc/shadow', 'cat /etc/pass*')).toBe(false);
    });

    it('looks through wrappers only as far as their options go', async () => {
      // The word `rm` is there, so the reject rule catches it anyway (issue 18: anywhere in the words).
      expect(await rejects('rm x', 'sudo -u rm ls x')).toBe(true);
      expect(await rejects('rm x', 'timeout -s KILL 5 rm x')).toBe(true);
      expect(await rejects('ls', 'command -p ls')).toBe(true);
      // `command -v ls` only prints a path, but the word `ls` is there: rejecting is the safe side.
      expect(await rejects('ls', 'command -v ls')).toBe(true);
    });
  });

  describe("mode 'allow'", () => {
    it('matches the same command written differently', async () => {
      expect(await allows('npm test', 'npm   test')).toBe(true);
      expect(await allows('ls -la', 'ls -al')).toBe(true);
      expect(await allows('ls -la', 'ls -l -a')).toBe(true);
      expect(await allows('git status', "git 'status'")).toBe(true);
    });

    it('does not match a different or longer command', async () => {
      expect(await allows('npm test', 'npm publish')).toBe(false);
      expect(await allows('npm test', 'npm test --force')).toBe(false);
      expect(await allows('git status', 'git status -s')).toBe(false);
      expect(await allows('ls -la', 'ls -la /etc')).toBe(false);
      expect(await allows('ls -la', 'ls -l')).toBe(false);
    });

    it('lets only the exact program through', async () => {
      expect(await allows('ls', '/bin/ls')).toBe(false);
      expect(await allows('ls', './ls')).toBe(false);
      // `sudo ls` lists `ls` as the program that runs, but sudo itself is never allowed by `ls`.
      expect((await analyze('sudo ls')).commands.map(describeCommand)).toEqual(['sudo ls', 'ls']);
      expect(await allows('sudo *', 'sudo ls') && (await analyze('sudo ls')).understood).toBe(false);
    });

    it('matches declarations and test brackets like any command', async () => {
      expect(await allows('export NODE_ENV=test', 'export NODE_ENV=test')).toBe(true);
      expect(await allows('export NODE_ENV=test', 'export NODE_ENV=production')).toBe(false);
      expect(await allows('[ -f package.json ]', '[ -f package.json ] && npm test')).toBe(true);
      expect(await allows('[ -f package.json ]', '[ -d package.json ]')).toBe(false);
    });

    it('never matches a command that sets variables', async () => {
      expect(await allows('ls', 'FOO=1 ls')).toBe(false);
      expect(await allows('ls', 'PATH=. ls')).toBe(false);
    });

    it('matches each command of a list on its own', async () => {
      expect(await allows('ls', 'ls ; echo x >> f')).toBe(true);
      expect(await allows('echo *', 'ls ; rm x')).toBe(false);
    });

    it('never matches a computed word', async () => {
      expect(await allows('echo *', 'echo $HOME')).toBe(false);
      expect(await allows('cat *', 'cat "$(ls)"')).toBe(false);
    });

    it('matches a glob word only with a pattern word holding *', async () => {
      expect(await allows('ls a.txt', 'ls a*')).toBe(false);
      expect(await allows('ls *.txt', 'ls *.txt')).toBe(true);
      expect(await allows('ls *', 'ls *.txt')).toBe(true);
    });
  });

  describe('wildcards', () => {
    it('lets a star finish a word and accept whatever follows', async () => {
      for (const line of ['npm run test', 'npm run test:unit', 'npm run test -- --watch', 'npm run test --silent']) {
        expect(await allows('npm run test*', line), line).toBe(true);
      }
      expect(await allows('npm run test*', 'npm run lint')).toBe(false);
      expect(await allows('npm run test*', 'npm publish')).toBe(false);
      expect(await allows('npm run test*', 'npm run')).toBe(false);
      expect(await allows('npm run test*', 'npm run test $X')).toBe(false);
    });

    it('takes a lone star in the middle as exactly one word', async () => {
      expect(await allows('git commit -m * --quiet', 'git commit -m "fix it" --quiet')).toBe(true);
      expect(await allows('git commit -m * --quiet', 'git commit -m a b --quiet')).toBe(false);
    });

    it('takes a lone star at the end as any arguments, none included', async () => {
      expect(await allows('ls *', 'ls')).toBe(true);
      expect(await allows('ls *', 'ls -la /tmp')).toBe(true);
      expect(await allows('*', 'anything --at all')).toBe(true);
    });

    it('still requires the flags the pattern names before a trailing star', async () => {
      expect(await allows('ls -l *', 'ls -la x')).toBe(true);
      expect(await allows('ls -l *', 'ls -a x')).toBe(false);
    });
  });

  it('is a pure function of its arguments', () => {
    const word = (text: string): ShellWord => ({ text, literal: true, glob: false });
    const command: SimpleCommand = { words: [word('rm'), word('-fr'), word('/')], assignments: [], source: 'rm -fr /' };
    const pattern = { pattern: 'rm -rf /', words: ['rm', '-rf', '/'] };
    expect(commandMatches(pattern, command, 'reject')).toBe(true);
    expect(commandMatches(pattern, command, 'allow')).toBe(true);
    expect(command.words.map((each) => each.text)).toEqual(['rm', '-fr', '/']);
  });
});

describe('describePattern and describeCommand', () => {
  it('print one line, quoting where the shell would need it', () => {
    expect(describePattern({ pattern: 'git commit -m *', words: ['git', 'commit', '-m', '*'] })).toBe('git commit -m *');
    expect(describePattern({ pattern: "echo 'a b'", words: ['echo', 'a b'] })).toBe("echo 'a b'");
    const command: SimpleCommand = {
      words: [
        { text: 'echo', literal: true, glob: false },
        { text: "it's\nhere", literal: true, glob: false },
        { text: '$HOME', literal: false, glob: false },
        { text: '*.txt', literal: true, glob: true },
      ],
      assignments: ['A=1'],
      source: '',
    };
    expect(describeCommand(command)).toBe(`A=1 echo 'it'\\''s here' $HOME *.txt`);
  });
});
