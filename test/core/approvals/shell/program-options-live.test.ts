// The table's claims checked against the real programs: each line below, run by real bash in a
// scratch folder, makes a hidden program create the file M (the canary), and the analyzer asks for
// it. A line whose program is not installed here is skipped and says so; no line is faked. Not here
// at all: man -P and less +!cmd, which run their command only when the output is a terminal.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from './shell-test-helpers';

/** `./c.sh` creates M and then behaves as gzip, so programs that need a working compressor finish. */
const HELPER = '#!/bin/sh\ntouch M\nexec gzip "$@"\n';

/** [program that must be installed, line]; every line creates M only through the option it shows. */
const LIVE: Array<[program: string, line: string]> = [
  ['git', `git grep --no-index -O'touch M' -e hello`],
  ['git', `git grep --no-index --open-files-in-pager='touch M' -e hello`],
  ['git', `git grep --no-index --open='touch M' -e hello`],
  ['git', `git grep --no-index -iO'touch M' -e hello`],
  ['git', `git clone -q -u'touch M; git-upload-pack' "file://$PWD/repo" c1`],
  ['git', `git clone -q --upload-p='touch M; git-upload-pack' "file://$PWD/repo" c2`],
  ['git', `git -c protocol.ext.allow=always ls-remote 'ext::sh -c touch% M'`],
  ['sort', 'sort --compress-program=./c.sh -S 100K big'],
  ['sort', 'sort --compress-prog=./c.sh -S 100K big'],
  ['split', "split --filter='touch M' f.txt"],
  ['tar', "tar --checkpoint=1 --checkpoint-action=exec='touch M' -cf x.tar f.txt"],
  ['tar', "tar -cf x.tar --checkpoint=1 --checkpoint-act=exec='touch M' f.txt"],
  ['tar', 'tar -I ./c.sh -cf y.tar f.txt'],
  ['tar', 'tar cIf ./c.sh y.tar f.txt'],
  ['tar', 'tar --use-compress-program=./c.sh -cf y.tar f.txt'],
  ['tar', "tar -xf plain.tar --to-command='touch M'"],
  ['sed', "sed -n '1e touch M' f.txt"],
  ['sed', "sed 's/hello/touch M/e' f.txt"],
  ['sed', "sed -n 's/x/y/;1e touch M' f.txt"],
  ['sed', "sed -n 'w M' f.txt"],
  ['awk', `awk 'BEGIN{system("touch M")}'`],
  ['awk', `awk 'BEGIN{print "x" | "touch M"}'`],
  ['awk', `awk 'BEGIN{"touch M" | getline}'`],
  ['awk', `awk '{ a = NR /2; print | "touch M"; b = 1/ 2 }' f.txt`],
  ['awk', `awk 'BEGIN{print "x" > "M"}'`],
  ['gawk', `gawk 'BEGIN{f="sys" "tem"; @f("touch M")}'`],
  ['rsync', 'rsync -e ./c.sh f.txt h:x'],
  ['zip', "zip -q -T -TT 'touch M' z1.zip f.txt"],
  ['zip', "zip -q z2.zip f.txt -T --unzip-command 'touch M'"],
  ['ssh', "ssh -o ProxyCommand='touch M' -o BatchMode=yes h"],
  ['ssh', "ssh -oProxyCommand='touch M' -o BatchMode=yes h"],
  ['ssh', "ssh -o 'proxycommand touch M' -o BatchMode=yes h"],
  ['scp', 'scp -S ./c.sh f.txt h:x'],
  ['scp', "scp -o ProxyCommand='touch M' -o BatchMode=yes f.txt h:x"],
  ['diff3', 'diff3 --diff-program=./c.sh f.txt f.txt f.txt'],
  ['sdiff', 'sdiff --diff-program=./c.sh f.txt f.txt'],
  ['vim', "vim -N -u NONE -n -es -c '!touch M' -c 'q!' f.txt"],
  ['vim', "vim -N -u NONE -n -es '+!touch M' -c 'q!' f.txt"],
  ['vim', "vim -N -u NONE -n -es --cmd '!touch M' -c 'q!' f.txt"],
  ['vim', "printf ':!touch M\\n:q!\\n' | vim -N -u NONE -n -es f.txt"],
  ['ed', "printf '!touch M\\nq\\n' | ed -s f.txt"],
  ['make', "make -s -E 'x:;@touch M' x"],
  ['make', "make -s --eval='x:;@touch M' x"],
  ['make', 'make -s -f mk'],
  ['make', "make -s CC='touch M #'"],
  ['wget', 'wget -q --use-askpass=./c.sh http://127.0.0.1:9/'],
  ['gcc', "gcc -wrapper /bin/sh,-c,'touch M',x a.c -o a.out"],
  ['go', `go build -toolexec "/bin/sh -c 'touch M; exec \\"\\$0\\" \\"\\$@\\"'" -o /dev/null m.go`],
  ['tclsh', "echo 'exec touch M' | tclsh"],
  ['sqlite3', "sqlite3 :memory: '.shell touch M'"],
  ['python3', "python3 -c 'open(\"M\", \"w\")'"],
  ['python3', "echo 'open(\"M\", \"w\")' | python3"],
  ['perl', "perl -e 'open F, \">M\"'"],
  ['perl', "perl -M'strict;open F, q(>M)' -e 1"],
  ['perl', `echo 'open F, ">M"' | perl`],
  ['node', `node -e 'require("fs").writeFileSync("M", "")'`],
  ['node', `echo 'require("fs").writeFileSync("M", "")' | node`],
  ['node', 'node --env-file=e.env s.js'],
  ['bash', "printf -v 'BASH_CMDS[cat]' %s /bin/bash; cat -c 'touch M'"],
  ['bash', "read 'BASH_CMDS[cat]' <<< /bin/bash; cat -c 'touch M'"],
  ['bash', 'export PATH=.:$PATH; hidden'],
  ['bash', 'for PATH in .; do hidden; done'],
  ['bash', 'set -k; hidden2 PATH=.'],
  ['bash', 'unset PATH; hidden'],
  ['bash', 'set -o history -H\necho touch M\n!!:s/echo //'],
  ['bash', "BASH_ALIASES[zz]='touch M'; set -o posix\nzz"],
  ['bash', 'compgen -C "touch M" x'],
  ['bash', 'mkdir -p 10 11 12; cp hidden 10/ls; cp hidden 11/ls; cp hidden 12/ls; : {PATH}>/dev/null; ls'],
];

const TOUCH = execFileSync('bash', ['-c', 'command -v touch'], { encoding: 'utf8' }).trim();

function installed(program: string): boolean {
  try {
    execFileSync('bash', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('options that run a program, on the real programs', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'program-options-live-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** A fresh scratch folder per line, with the files the lines use. */
  function scratch(index: number): string {
    const dir = path.join(root, String(index));
    execFileSync('mkdir', ['-p', dir]);
    writeFileSync(path.join(dir, 'f.txt'), 'hello\n');
    writeFileSync(path.join(dir, 'big'), Array.from({ length: 200_000 }, (_, i) => `${i}\n`).join(''));
    writeFileSync(path.join(dir, 'c.sh'), HELPER);
    chmodSync(path.join(dir, 'c.sh'), 0o755);
    for (const name of ['hidden', 'hidden2']) {
      // An absolute touch: these run with PATH set to the scratch folder.
      writeFileSync(path.join(dir, name), `#!/bin/sh\n${TOUCH} M\n`);
      chmodSync(path.join(dir, name), 0o755);
    }
    writeFileSync(path.join(dir, 'mk'), 'x:\n\t@touch M\n');
    writeFileSync(path.join(dir, 'Makefile'), 'all:\n\t@$(CC) hi\n');
    writeFileSync(path.join(dir, 'e.env'), 'NODE_OPTIONS=--require ./r.js\n');
    writeFileSync(path.join(dir, 'r.js'), 'require("fs").writeFileSync("M", "")\n');
    writeFileSync(path.join(dir, 's.js'), '\n');
    writeFileSync(path.join(dir, 'a.c'), 'int main(void) { return 0; }\n');
    writeFileSync(path.join(dir, 'm.go'), 'package main\n\nfunc main() {}\n');
    return dir;
  }

  beforeAll(() => {
    writeFileSync(path.join(root, 'f.txt'), 'hello\n');
    if (installed('git')) execFileSync('git', ['init', '-q', path.join(root, 'repo')]);
    if (installed('tar')) execFileSync('tar', ['-cf', path.join(root, 'plain.tar'), '-C', root, 'f.txt']);
  });

  LIVE.forEach(([program, line], index) => it(`${program}: ${JSON.stringify(line)} runs a hidden program, and asks`, async (context) => {
    // Shown as skipped, never as passed, where the program is missing.
    if (!installed(program)) return context.skip();
    const dir = scratch(index);
    execFileSync('ln', ['-sf', path.join(root, 'repo'), path.join(dir, 'repo')]);
    execFileSync('cp', [path.join(root, 'plain.tar'), dir]);
    try {
      execFileSync('bash', ['--noprofile', '--norc', '-c', line], {
        cwd: dir,
        stdio: 'ignore',
        timeout: 45_000,
        // A HOME of its own keeps the machine's start-up files out; pyenv's shims still find their root.
        env: {
          PATH: process.env.PATH,
          HOME: dir,
          PYENV_ROOT: process.env.PYENV_ROOT ?? path.join(homedir(), '.pyenv'),
          // go's build cache, so go does not rebuild its standard library for the one line that uses it.
          GOCACHE: process.env.GOCACHE ?? path.join(homedir(), '.cache', 'go-build'),
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
          LANG: 'C',
        },
      });
    } catch {
      // Many of these fail after the hidden program ran (ssh finds no host); what matters is M.
    }
    expect(existsSync(path.join(dir, 'M')), `${line} did not run its hidden program`).toBe(true);
    const analysis = await analyze(line, dir);
    expect(analysis.understood, line).toBe(false);
  }, 60_000));
});
