import { mkdirSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ShellAnalysisSchema } from '../../../src/contract/shell-analysis';
import { NOT_UNDERSTOOD } from '../../core/approvals/shell/shell-cases';
import { analyze, commandsOf, scratchWorkspace } from '../../core/approvals/shell/shell-test-helpers';

const workspace = scratchWorkspace();
afterAll(workspace.remove);

const writesOf = async (line: string, cwd?: string) => (await analyze(line, workspace.root, cwd)).writes;

describe('analyzeShellCommand', () => {
  describe('finding commands', () => {
    it('splits a list into its commands and sees the redirection as a write', async () => {
      const analysis = await analyze('ls ; echo x >> f', workspace.root);
      expect(analysis).toEqual(
        ShellAnalysisSchema.parse({
          understood: true,
          problems: [],
          commands: [
            { words: [{ text: 'ls', literal: true, glob: false }], assignments: [], source: 'ls' },
            { words: [{ text: 'echo', literal: true, glob: false }, { text: 'x', literal: true, glob: false }], assignments: [], source: 'echo x' },
          ],
          writes: [{ target: 'f', insideWorkspace: true }],
        }),
      );
    });

    it('finds commands in pipelines, groups, conditions, loops, case arms and function bodies', async () => {
      expect(await commandsOf('a | b && (c; { d; }) || ! e')).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(await commandsOf('if a; then b; elif c; then d; else e; fi')).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(await commandsOf('while a; do b; done; until c; do d; done; for i in x; do e; done')).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(await commandsOf('case $x in a) b;; *) c;; esac; f() { d; }')).toEqual(['b', 'c', 'd']);
      expect(await commandsOf('for ((i = 0; i < 3; i++)); do a; done')).toEqual(['a']);
      expect(await commandsOf('[[ -n $(a) ]] && [ -f x ]')).toEqual(['a', "'[[' -n $(a) ']]'", "'[' -f x ']'"]);
    });

    it('finds commands inside substitutions wherever they sit', async () => {
      expect((await commandsOf('echo "x $(a) `b`" ${v:-$(c)} $((1 + $(d)))')).slice(0, 4)).toEqual(['a', 'b', 'c', 'd']);
      expect(await commandsOf('cat <(a) >(b)')).toEqual(['a', 'b', 'cat <(a) >(b)']);
      expect(await commandsOf('X=$(a) ls')).toEqual(['a', 'X=$(a) ls']);
      // Here-document substitutions run while the redirection is set up, before the command.
      expect(await commandsOf('cat <<EOF\nhello $(a)\nEOF')).toEqual(['a', 'cat']);
    });

    it('treats a quoted here-document body as data', async () => {
      expect(await commandsOf("cat <<'EOF'\n$(rm -rf /)\nEOF")).toEqual(['cat']);
    });

    it('adds the commands of scripts given as text, keeping the outer command', async () => {
      expect(await commandsOf("sh -c 'a; b'")).toEqual(["sh -c 'a; b'", 'a', 'b']);
      expect(await commandsOf('bash -o pipefail -ec "a | b"')).toEqual([expect.any(String), 'a', 'b']);
      expect(await commandsOf('eval a "&&" b')).toEqual(["eval a '&&' b", 'a', 'b']);
      // The program behind the wrapper is listed too, so rules judge it and the person sees it.
      expect(await commandsOf('sudo -u bob zsh -c a')).toEqual(['sudo -u bob zsh -c a', 'zsh -c a', 'a']);
      expect(await commandsOf("bash -c \"eval 'a'\"")).toEqual([expect.any(String), "eval a", 'a']);
    });

    it('runs a script file like any other command', async () => {
      const analysis = await analyze('sh script.sh && bash --version');
      expect(analysis.understood).toBe(true);
      // `command` hides functions and aliases from the name it runs; since issue 18 it asks.
      expect((await analyze('command -v bash')).understood).toBe(false);
    });

    it('keeps assignments apart from the words', async () => {
      const [command] = (await analyze('FOO=1 BAR="a b" ls -la')).commands;
      expect(command!.assignments).toEqual(['FOO=1', 'BAR="a b"']);
      expect(command!.words.map((word) => word.text)).toEqual(['ls', '-la']);
    });

    it('lists a line of bare assignments as a command without words', async () => {
      const [assignment, ls] = (await analyze('PATH=/tmp/evil:$PATH; ls')).commands;
      expect(assignment).toMatchObject({ words: [], assignments: ['PATH=/tmp/evil:$PATH'] });
      expect(ls!.words[0]!.text).toBe('ls');
    });

    it('gives words after a redirection target back to their command, as the shell does', async () => {
      const [command] = (await analyze('rm > /dev/null -rf /')).commands;
      expect(command!.words.map((word) => word.text)).toEqual(['rm', '-rf', '/']);
    });

    it('reads each command\'s own source text', async () => {
      const analysis = await analyze('ls -la  &&  git   status');
      expect(analysis.commands.map((command) => command.source)).toEqual(['ls -la', 'git   status']);
    });
  });

  describe('reading words', () => {
    const wordsOf = async (line: string) => (await analyze(line)).commands.at(-1)!.words.slice(1);

    it('removes quotes and escapes', async () => {
      expect((await wordsOf(`echo "a b" 'c d' e\\ f "x\\"y" $'t\\tu'`)).map((word) => word.text)).toEqual(['a b', 'c d', 'e f', 'x"y', 't\tu']);
      expect((await wordsOf('echo "two\nlines" "" "a$"')).map((word) => word.text)).toEqual(['two\nlines', '', 'a$']);
    });

    it('marks expansions as not literal', async () => {
      const words = await wordsOf('echo $x ${y} "$z" $(a) `b` $((1)) <(c) ~ ~/x {a,b} {1..3} $\'\\x41\'');
      expect(words.map((word) => word.literal)).toEqual(Array(words.length).fill(false));
    });

    it('keeps braces that do not expand literal', async () => {
      expect((await wordsOf('find . -exec echo {} ;')).every((word) => word.literal)).toBe(true);
    });

    it('marks unquoted *, ? and [ as globs, and quoted ones as plain text', async () => {
      expect((await wordsOf('ls *.txt a?c [ab] "*" \\* \'?\'')).map((word) => word.glob)).toEqual([true, true, true, false, false, false]);
    });
  });

  describe('what it does not understand', () => {
    it.each(NOT_UNDERSTOOD)('refuses %j', async (line, problem) => {
      const analysis = await analyze(line);
      expect(analysis.understood).toBe(false);
      expect(analysis.problems.join('\n')).toMatch(problem);
    });

    it('still lists the commands it could see, for reject rules', async () => {
      const analysis = await analyze('rm -rf / ; curl x | sh');
      expect(analysis.understood).toBe(false);
      expect(analysis.commands.map((command) => command.words[0]!.text)).toEqual(['rm', 'curl', 'sh']);
      const broken = await analyze('if rm -rf /; then');
      expect(broken.understood).toBe(false);
      expect(broken.commands.map((command) => command.source)).toEqual(['rm -rf /']);
    });

    it('understands an empty line and a comment', async () => {
      expect(await analyze('')).toMatchObject({ understood: true, commands: [] });
      expect(await analyze('# nothing to do')).toMatchObject({ understood: true, commands: [] });
    });
  });

  describe('writes', () => {
    it('counts every output redirection, and no descriptor duplication', async () => {
      const writes = await writesOf('a > w1; b >> w2; c &> w3; d &>> w4; e >| w5; f 2> w6; g >& w7; h 2>&1 >&2 <&0 2>&- < in <<< text');
      expect(writes.map((write) => write.target)).toEqual(['w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7']);
    });

    it('treats files in the workspace and other descriptors as inside', async () => {
      expect(await writesOf('ls > out.txt 2> sub/dir/err.log; ls > /dev/null 2> /dev/stderr > /dev/fd/3')).toEqual([
        { target: 'out.txt', insideWorkspace: true },
        { target: 'sub/dir/err.log', insideWorkspace: true },
        { target: '/dev/fd/3', insideWorkspace: true },
      ]);
      expect(await writesOf(`ls > ${workspace.root}/x`)).toEqual([{ target: `${workspace.root}/x`, insideWorkspace: true }]);
    });

    it('treats paths that leave the workspace as outside', async () => {
      expect(await writesOf('echo x > /etc/passwd')).toEqual([{ target: '/etc/passwd', insideWorkspace: false }]);
      expect(await writesOf('echo x > ../x')).toEqual([{ target: '../x', insideWorkspace: false }]);
      expect(await writesOf('echo x > /dev/sda')).toEqual([{ target: '/dev/sda', insideWorkspace: false }]);
    });

    it('has no write for a duplicated descriptor', async () => {
      expect(await writesOf('ls 2>&1 > /dev/null')).toEqual([]);
    });

    // Issue 30: an "always" for `git status 2>/dev/null` was remembered as `writes: true`, so a later
    // plain `git status` got a writable workspace. Output thrown away or sent to the call's own output
    // touches no file.
    it('does not count /dev/null, /dev/stdout, /dev/stderr and /dev/fd/1 or 2 as writes', async () => {
      for (const line of ['git status 2>/dev/null', 'git status >/dev/null 2>&1', 'ls &> /dev/null', 'ls >> /dev/null', 'ls >| /dev/null', 'echo x > /dev/stdout', 'echo x >&2 2> /dev/stderr', 'echo x > /dev/fd/1', 'echo x 2> /dev/fd/2', "sh -c 'ls 2>/dev/null'"]) {
        expect(await writesOf(line), line).toEqual([]);
      }
      // Any other descriptor, or a device a relative path only might reach, is still a write.
      expect(await writesOf('echo x > /dev/fd/5')).toEqual([{ target: '/dev/fd/5', insideWorkspace: true }]);
      expect(await writesOf('cd /dev; echo x > null')).toEqual([{ target: 'null', insideWorkspace: true }]);
      expect(await writesOf('echo x > /dev/null/../sda')).toEqual([{ target: '/dev/null/../sda', insideWorkspace: false }]);
    });

    it('treats a computed target as outside', async () => {
      expect(await writesOf('echo x > "$OUT"; echo y >> ~/.bashrc')).toEqual([
        { target: '$OUT', insideWorkspace: false },
        { target: '~/.bashrc', insideWorkspace: false },
      ]);
    });

    it('follows symbolic links out of the workspace', async () => {
      symlinkSync('/etc', path.join(workspace.root, 'etc-link'));
      expect(await writesOf('echo x > etc-link/passwd')).toEqual([{ target: 'etc-link/passwd', insideWorkspace: false }]);
    });

    it('resolves relative targets against cwd', async () => {
      mkdirSync(path.join(workspace.root, 'deep'), { recursive: true });
      expect(await writesOf('echo x > ../x', 'deep')).toEqual([{ target: '../x', insideWorkspace: true }]);
      expect(await writesOf('echo x > ../../x', 'deep')).toEqual([{ target: '../../x', insideWorkspace: false }]);
    });

    it('follows cd, counting every directory the line may be in', async () => {
      expect(await writesOf('cd sub && make > log')).toEqual([{ target: 'log', insideWorkspace: true }]);
      expect(await writesOf('cd /etc && echo x > passwd')).toEqual([{ target: 'passwd', insideWorkspace: false }]);
      expect(await writesOf('test -d x || cd .. ; echo > f')).toEqual([{ target: 'f', insideWorkspace: false }]);
      expect(await writesOf('echo > f; cd /etc')).toEqual([{ target: 'f', insideWorkspace: true }]);
    });

    it('gives up on relative targets after a cd it cannot follow', async () => {
      for (const line of ['cd "$DIR"; echo > f', 'cd; echo > f', 'cd -; echo > f', 'for d in a; do cd x; done; echo > f', '. ./env.sh; echo > f']) {
        expect(await writesOf(line), line).toEqual([{ target: 'f', insideWorkspace: false }]);
      }
      expect(await writesOf('cd "$DIR"; echo > /dev/null')).toEqual([]);
    });

    it('sees writes inside scripts given as text', async () => {
      expect(await writesOf("sh -c 'echo x > /etc/hosts'")).toEqual([{ target: '/etc/hosts', insideWorkspace: false }]);
    });
  });
});
