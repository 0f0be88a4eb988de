// Builtins and assignments that set a variable by name: a name that changes what later commands run
// (BASH_CMDS, PATH, PS4, LD_PRELOAD, GIT_SSH_COMMAND...), or a name computed at run time, asks.
import { describe, expect, it } from 'vitest';
import { analyze, reasons } from './shell-test-helpers';

const ASKS: Array<[line: string, problem: RegExp]> = [
  ["printf -v 'BASH_CMDS[cat]' %s /bin/bash; cat -c 'id'", /BASH_CMDS/],
  ['printf -vBASH_CMDS[cat] %s /bin/bash', /BASH_CMDS/],
  ['printf -v PATH %s .', /PATH/],
  ['printf -v "$x" %s y', /computed/],
  ["read 'BASH_CMDS[x]'", /BASH_CMDS/],
  ['read -r PATH', /PATH/],
  ['read -a BASH_ALIASES', /BASH_ALIASES/],
  ['read -raBASH_ALIASES', /BASH_ALIASES/],
  ["read -p 'x' IFS", /IFS/],
  ['read x y PS4', /PS4/],
  ['read $name', /computed/],
  ["wait -p 'BASH_CMDS[ls]'", /BASH_CMDS/],
  ['wait -np PATH', /PATH/],
  ['getopts ab PATH', /PATH/],
  ['declare BASH_CMDS[cat]=/bin/bash', /BASH_CMDS/],
  ['declare -A BASH_CMDS=([cat]=/bin/bash)', /BASH_CMDS/],
  ['export PATH=.', /PATH/],
  ['export "PATH=."', /PATH/],
  ['local IFS=x', /IFS/],
  ["typeset PS4='$(id)'", /PS4/],
  ['readonly BASH_ENV=x', /BASH_ENV/],
  ['export ENV=x', /ENV/],
  ['export LD_PRELOAD=./x.so', /LD_PRELOAD/],
  ['export FUNCNEST=1', /FUNCNEST/],
  ['export GLOBIGNORE=x', /GLOBIGNORE/],
  ['export PROMPT_COMMAND=id', /PROMPT_COMMAND/],
  ['export BASH_LOADABLES_PATH=.', /BASH_LOADABLES_PATH/],
  ['export SHELLOPTS', /SHELLOPTS/],
  ['export GIT_SSH_COMMAND=id', /GIT_SSH_COMMAND/],
  ['export PAGER=id', /PAGER/],
  ['export npm_config_script_shell=./x', /npm_config_script_shell/],
  ['export NODE_OPTIONS=--require=./x.js', /NODE_OPTIONS/],
  ['export PYTHONPATH=.', /PYTHONPATH/],
  ['export PERL5OPT=-Mx', /PERL5OPT/],
  ['export TAR_OPTIONS=--to-command=id', /TAR_OPTIONS/],
  ['export XDG_CONFIG_HOME=.', /XDG_CONFIG_HOME/],
  ['TAPE=h:x tar -t', /remote/],
  ['export PA*', /glob/],
  ['declare "$x=1"', /computed/],
  ['export $x=1', /computed/],
  ['unset PATH', /PATH/],
  ['CDPATH=/tmp', /CDPATH/],
  ['HOME=/tmp', /HOME/],
  ['PATH=. ls', /PATH/],
  ['BASH_CMDS[cat]=/bin/bash', /BASH_CMDS/],
  ['env PATH=. ls', /PATH/],
  ['env GIT_EXTERNAL_DIFF=./x git diff', /GIT_EXTERNAL_DIFF/],
  ["env 'BASH_FUNC_ls%%=() { id; }' bash -c ls", /BASH_FUNC_/],
  ['for PATH in /tmp; do ls; done', /PATH/],
  ['select PATH in /tmp; do ls; done', /PATH/],
  ['time PATH=. ls', /PATH/],
  ['set -k; ls2 PATH=.', /-k|keyword/],
  ['set -o keyword', /keyword/],
  ['set -H', /history/],
  ['set -o histexpand', /history/],
  ["bash -H -c 'echo x'", /history|-H/],
  ["bash -O extglob -c 'echo x'", /-O/],
  ["bash -i -c 'echo x'", /interactive|-i/],
  ["bash -o histexpand -c 'echo x'", /history/],
  ['compgen -C id x', /compgen/],
  [': {PATH}>/dev/null; ls', /descriptor number in the variable/],
  ['echo hi {HOME}>/dev/null; git status', /descriptor number in the variable/],
  ['cat {x}</dev/null', /descriptor number in the variable/],
  ['exec {fd}>&-', /descriptor number in the variable/],
  ['fc -e id', /fc/],
];

const UNDERSTOOD = [
  'read -r line',
  'read -a arr',
  "read -p 'PATH? ' answer",
  'printf -v x %s y',
  "printf '%s\\n' PATH",
  "printf 'PATH is %s\\n' x",
  'export NODE_ENV=production',
  'export PYTHONUNBUFFERED=1',
  'export GIT_AUTHOR_NAME=x',
  'export CI=true LANG=C',
  'x=1',
  'FOO=bar ls',
  'for f in a b; do echo $f; done',
  'set -e',
  'set -euo pipefail',
  'set -x',
  'declare -a arr=(1 2)',
  'unset x',
  'env FOO=1 npm test',
  'getopts ab opt',
  'wait -n',
  'bash -o pipefail -ec "ls | wc -l"',
  'echo {x} >/dev/null',
];

describe('variables set by name', () => {
  it.each(ASKS)('%j asks', async (line, problem) => {
    const analysis = await analyze(line);
    expect(analysis.understood, line).toBe(false);
    // The reason, without the excerpt of the line it quotes: the option must be named by the reason itself.
    expect(reasons(analysis.problems)).toMatch(problem);
  });

  it.each(UNDERSTOOD)('%j stays understood', async (line) => {
    expect((await analyze(line)).problems).toEqual([]);
  });
});
