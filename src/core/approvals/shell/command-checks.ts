import { assignmentProblem } from './assigned-variables';
import { EXACT_WRAPPERS, isWrapper, programName } from './command-wrappers';
import { programOptionProblem } from './program-options-check';
import type { ShellWord } from '../../../contract/shell-analysis';

/**
 * Simple commands whose effect the analyzer does not model exactly, by what program they run and
 * with which words. Each returns the reason a person must decide; the line is then not understood,
 * so no allow rule, "always" or read-only default can let it through.
 */

/** Builtins that run text as code, change what a later command name means, or hide the program. */
const UNMODELLED_PROGRAMS: Readonly<Record<string, string>> = {
  eval: 'eval runs text as a command line',
  source: 'source runs a script file this line does not show',
  '.': '. (source) runs a script file this line does not show',
  exec: 'exec replaces the shell with another program',
  command: 'command runs a program past functions and aliases',
  builtin: 'builtin runs a shell builtin by name',
  alias: 'an alias changes what a later command name runs',
  enable: 'enable loads or hides builtins, changing what a later command name runs',
  hash: 'hash can bind a command name to another program',
  shopt: 'shopt changes how bash reads later commands (aliases, globs)',
  let: 'let evaluates arithmetic, which runs array subscripts as code',
  mapfile: 'mapfile can run a callback command',
  readarray: 'readarray can run a callback command',
  coproc: 'a coprocess runs in the background',
  compgen: 'compgen -C and -F run a command or function to list completions',
  complete: 'complete -C and -F name a command or function bash runs for completions',
  fc: 'fc runs an editor, or runs earlier commands again',
};

/** Package and project tools whose subcommand runs any command it is given (`npm exec -- rm x`). */
const RUNS_A_COMMAND_BY_SUBCOMMAND: Readonly<Record<string, readonly string[] | true>> = {
  npx: true,
  bunx: true,
  uvx: true,
  npm: ['exec', 'x'],
  pnpm: ['exec', 'dlx'],
  yarn: ['exec', 'dlx'],
  bun: ['x', 'exec'],
  poetry: ['run'],
  pipenv: ['run'],
  uv: ['run'],
  pipx: ['run'],
  bundle: ['exec'],
  docker: ['run', 'exec'],
  podman: ['run', 'exec'],
  kubectl: ['exec', 'run'],
};

/** A word bash may evaluate as an array subscript (`printf -v 'a[$(rm x)]'`, `[[ -v 'a[$(rm x)]' ]]`). */
const SUBSCRIPT_WITH_CODE = /\[[^\]]*[$`]/;

const ARITHMETIC_TEST = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

/**
 * `assignments` are those in front of the command (`PATH=. ls`); a line of bare assignments comes
 * with no words.
 */
export function unmodelledCommand(words: readonly ShellWord[], assignments: readonly string[] = []): string | undefined {
  const assigned = assignmentProblem(words, assignments);
  if (assigned !== undefined) return `${assigned}; a person decides`;
  const first = words[0];
  if (first === undefined || !first.literal) return undefined;
  const name = programName(first);
  const own = Object.hasOwn(UNMODELLED_PROGRAMS, name) ? UNMODELLED_PROGRAMS[name] : undefined;
  if (own !== undefined) return `${own}; it is not analyzed`;
  // find runs commands only through its actions, which the option table lists.
  if (isWrapper(name) && !EXACT_WRAPPERS.has(name) && name !== 'find') return `${name} runs another program given in its words; it is not analyzed exactly`;
  if (EXACT_WRAPPERS.has(name)) {
    const unknown = unknownWrapperOption(name, words);
    if (unknown !== undefined) return `${name} ${unknown}: only ${name === 'env' ? '-i, -0, -v, -u NAME and NAME=value are' : '-p is'} analyzed before the program it runs`;
  }
  const option = programOptionProblem(name, words);
  if (option !== undefined) return `${option}; it is not analyzed`;
  if (name === 'git') return gitConfigReason(words);
  const runner = RUNS_A_COMMAND_BY_SUBCOMMAND[name];
  const subcommand = words.slice(1).find((word) => !word.text.startsWith('-'))?.text;
  if (runner === true || (runner !== undefined && subcommand !== undefined && runner.includes(subcommand))) {
    return `${[name, runner === true ? '' : subcommand].join(' ').trim()} runs a command given in its words; it is not analyzed`;
  }
  if (name === 'declare' || name === 'typeset' || name === 'local' || name === 'export' || name === 'readonly') {
    if (words.some((word) => /^-[a-zA-Z]*[fnFi]/.test(word.text))) return `${name} with -f, -n or -i changes what later commands run; it is not analyzed`;
  }
  if (name === '[[' && words.some((word, index) => ARITHMETIC_TEST.has(word.text) && !isNumberNear(words, index))) {
    return '[[ ... -eq ... ]] evaluates variable names and subscripts as arithmetic; compare numbers only';
  }
  const subscript = words.find((word) => word.literal && SUBSCRIPT_WITH_CODE.test(word.text));
  if (subscript !== undefined) return `bash may evaluate "${subscript.text}" as an array subscript, running the code in it`;
  return undefined;
}

/** git's options and subcommands are in the option table; `git config` is read here. */
function gitConfigReason(words: readonly ShellWord[]): string | undefined {
  const subcommand = words.slice(1).find((word) => !word.text.startsWith('-'))?.text;
  if (subcommand === 'config' && !words.some((word) => /^(--get|--get-all|--get-regexp|--list|-l)$/.test(word.text))) {
    return 'git config changes settings that make later git commands run programs; it is not analyzed';
  }
  return undefined;
}

function isNumberNear(words: readonly ShellWord[], index: number): boolean {
  const isNumber = (word: ShellWord | undefined) => word !== undefined && word.literal && /^-?\d+$/.test(word.text);
  return isNumber(words[index - 1]) && isNumber(words[index + 1]);
}

/**
 * The first option of `env` or `time` outside the few modelled exactly, or undefined. Anything else
 * could take a value we would read as the program (`env -a ls rm` runs rm in newer coreutils), or
 * change where or how it runs (`env -C`, `env -S`, `time -o FILE`).
 */
function unknownWrapperOption(name: string, words: readonly ShellWord[]): string | undefined {
  for (let index = 1; index < words.length; index += 1) {
    const text = words[index]!.text;
    if (!words[index]!.literal) return text;
    if (text === '--') return undefined;
    if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) continue;
    if (!text.startsWith('-')) return undefined;
    if (name === 'time') {
      if (text !== '-p') return text;
      continue;
    }
    if (/^(--ignore-environment|--null|--debug|--unset=.+)$/.test(text) || /^-[i0v]+$/.test(text)) continue;
    if (text === '--unset' || /^-[i0v]*u$/.test(text)) index += 1;
    else if (!/^-[i0v]*u.+$/.test(text)) return text;
  }
  return undefined;
}