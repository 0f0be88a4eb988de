import type { ShellWord } from '../../../contract/shell-analysis';
import { dangerousVariable } from './dangerous-variables';

/**
 * Commands that set a shell variable by name: assignments (`PATH=. ls`), `export`/`declare`/`local`/
 * `typeset`/`readonly`/`unset`, and the builtins that take a variable name as an argument (`printf -v`,
 * `read`, `wait -p`, `getopts`), plus `env NAME=value`. A name from dangerous-variables.ts asks, and
 * so does a name bash only learns at run time (`read $x`, `export "$x=1"`) or from a glob
 * (`export PA*` sets PATH if a file `PATH=.` exists). `set -k` and `set -H` change how bash reads
 * later words, so they ask too. `mapfile`/`readarray` ask whatever their words (command-checks.ts).
 */

/** Option letters that take a value, for the builtins that read their options with bash's getopt. */
const VALUE_LETTERS: Readonly<Record<string, string>> = { printf: 'v', read: 'adinptuN', wait: 'p' };
/** The option letter whose value is the name assigned. */
const NAME_LETTER: Readonly<Record<string, string>> = { printf: 'v', read: 'a', wait: 'p' };
const DECLARATIONS = new Set(['declare', 'typeset', 'local', 'export', 'readonly', 'unset']);

/** The name an assignment-like text sets (`PATH=...`, `a[1]+=x`, `IFS`), or undefined when it starts with none. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const ASSIGNMENT_LIKE = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/** Why the variables this command sets need a person, or undefined. */
export function assignmentProblem(words: readonly ShellWord[], assignments: readonly string[]): string | undefined {
  for (const assignment of assignments) {
    const problem = nameProblem('this assignment', NAME.exec(assignment)?.[0]);
    if (problem !== undefined) return problem;
  }
  const first = words[0];
  if (first === undefined || !first.literal) return undefined;
  const command = first.text;
  if (command in VALUE_LETTERS) return namesProblem(command, getoptNames(command, words));
  if (command === 'getopts') return namesProblem(command, words.slice(words[1]?.text === '--' ? 3 : 2, words[1]?.text === '--' ? 4 : 3));
  if (DECLARATIONS.has(command)) return namesProblem(command, declaredNames(words));
  if (command === 'env' || command === 'time') return namesProblem(command, envAssignments(words));
  if (command === 'set') return setProblem(words);
  return undefined;
}

/** Why setting `name` asks, for a loop variable (`for PATH in ...`, `select PATH in ...`). */
export function loopVariableProblem(name: string | undefined): string | undefined {
  return nameProblem('this loop', name);
}

function namesProblem(command: string, words: readonly ShellWord[]): string | undefined {
  for (const word of words) {
    if (!word.literal && !ASSIGNMENT_LIKE.test(word.text)) return `${command} sets a variable whose name is computed at run time ("${word.text}")`;
    if (word.glob && !ASSIGNMENT_LIKE.test(word.text)) return `${command} is given the glob "${word.text}", which may expand to a file named like a variable or an assignment`;
    const problem = nameProblem(command, NAME.exec(word.text)?.[0]);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function nameProblem(what: string, name: string | undefined): string | undefined {
  const why = name === undefined ? undefined : dangerousVariable(name);
  return why === undefined ? undefined : `${what} sets ${name}, which ${why}`;
}

/**
 * The names `printf -v`, `read` and `wait -p` assign. Their options end at the first word that is not
 * one; a computed word among them could be `-v NAME`, so it is returned as a name (and asks).
 */
function getoptNames(command: string, words: readonly ShellWord[]): ShellWord[] {
  const names: ShellWord[] = [];
  const valueLetters = VALUE_LETTERS[command]!;
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index]!;
    if (!word.literal) return [...names, word];
    if (word.text === '--' || word.text === '-' || !word.text.startsWith('-')) {
      // printf's first operand is its format, wait's are process ids; read's are the names.
      const rest = words.slice(word.text === '--' ? index + 1 : index);
      return command === 'read' ? [...names, ...rest] : names;
    }
    for (let position = 1; position < word.text.length; position += 1) {
      const letter = word.text[position]!;
      if (!valueLetters.includes(letter)) continue;
      const attached = word.text.slice(position + 1);
      const value = attached !== '' ? { ...word, text: attached } : words[(index += 1)];
      if (letter === NAME_LETTER[command] && value !== undefined) names.push(value);
      break;
    }
  }
  return names;
}

/** `declare -x NAME=value NAME2`: the words after the options (`-x`, `+x`, `--`). */
function declaredNames(words: readonly ShellWord[]): ShellWord[] {
  let index = 1;
  while (index < words.length && words[index]!.literal && /^[-+]/.test(words[index]!.text)) {
    index += 1;
    if (words[index - 1]!.text === '--') break;
  }
  return words.slice(index);
}

/** `env [-i] [-u NAME] NAME=value ... program`: the assignments before the program. */
function envAssignments(words: readonly ShellWord[]): ShellWord[] {
  const found: ShellWord[] = [];
  for (let index = 1; index < words.length; index += 1) {
    const text = words[index]!.text;
    if (/^(-u|-C|--unset|--chdir)$/.test(text)) index += 1;
    // env accepts any name before `=`, such as BASH_FUNC_ls%%; only its beginning matters here.
    else if (/^[^-=][^=]*=/.test(text)) found.push(words[index]!);
    else if (!text.startsWith('-')) break;
  }
  return found;
}

/** `set -k` makes `cmd NAME=value` words environment settings; `set -H` expands history in later lines. */
function setProblem(words: readonly ShellWord[]): string | undefined {
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index]!;
    if (!word.literal) return `set is given "${word.text}", computed at run time, which could turn on an option that changes how bash reads later lines`;
    if (word.text === '--' || !/^[-+]/.test(word.text)) return undefined;
    const letters = word.text.slice(1);
    // `+k` and `+o NAME` turn options off.
    if (word.text.startsWith('+')) {
      if (letters.includes('o')) index += 1;
      continue;
    }
    if (letters.includes('k')) return 'set -k (keyword) makes every NAME=value word an environment setting of its command, which the analysis does not follow';
    if (letters.includes('H')) return 'set -H turns on history expansion, which rewrites later lines before bash runs them';
    if (letters.includes('o')) {
      const option = words[index + 1]?.text ?? '';
      if (/^(keyword|histexpand|history|posix)$/.test(option)) return `set -o ${option} changes how bash reads later lines (keyword settings, history expansion, POSIX-mode aliases)`;
      index += 1;
    }
  }
  return undefined;
}
