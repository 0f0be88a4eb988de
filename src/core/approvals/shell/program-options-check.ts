import type { ShellWord } from '../../../contract/shell-analysis';
import { awkProblem } from './awk-program';
import { PROGRAM_ROWS, type OptionThatRuns, type ProgramRow } from './program-options';
import { sedProblem } from './sed-script';

/**
 * Applies the table of options that run a program (program-options.ts) to one simple command.
 * Options are read as getopt reads them, leaning towards finding an option: every word is looked at
 * (getopt lets options follow operands), a long option matches any abbreviation, and a cluster is
 * read letter by letter until a letter known to take a value.
 */

const ROWS = new Map(PROGRAM_ROWS.flatMap((row) => row.programs.map((program) => [program, row] as const)));

/** Why the command `words` (run as `name`) must be seen by a person, or undefined. */
export function programOptionProblem(name: string, words: readonly ShellWord[]): string | undefined {
  const row = ROWS.get(name) ?? ROWS.get(name.replace(/[\d.]+$/, ''));
  if (row === undefined) return undefined;
  if (row.always !== undefined) return `${name} ${row.always}`;
  const computed = words.slice(1).find((word) => !word.literal);
  if (computed !== undefined) return `${name} is given "${computed.text}", computed at run time, which could be one of its options that run a program`;
  // `git --help X` and `git X --help` run `git help X` with the words after them (`-w` opens a browser).
  const asksHelp = row.subcommands !== undefined && (words[1]?.text === '--help' || words[2]?.text === '--help');
  const subcommand = asksHelp ? 'help' : words.slice(1).find((word) => !word.text.startsWith('-'))?.text;
  const ownSubcommand = subcommand !== undefined && row.subcommands !== undefined && Object.hasOwn(row.subcommands, subcommand) ? row.subcommands[subcommand] : undefined;
  if (ownSubcommand !== undefined) return `${name} ${subcommand} ${ownSubcommand}`;
  const options = (row.options ?? []).filter((option) => option.subcommand === undefined || option.subcommand === subcommand);
  for (let index = 1; index < words.length; index += 1) {
    const found = optionAt(row, options, words, index);
    if (found !== undefined) return `${name} ${found.names.join('/')} ${found.why}`;
    const word = (row.words ?? []).find((rule) => rule.pattern.test(words[index]!.text));
    if (word !== undefined) return `${name} word "${words[index]!.text}" ${word.why}`;
  }
  if (row.language === 'sed') return sedProblem(words);
  if (row.language === 'awk') return awkProblem(words);
  if (row.stdin !== undefined && readsStdin(row.stdin, words)) {
    return `${name} reads its program from standard input here (no script file is named), which cannot be checked; name a script file`;
  }
  return undefined;
}

/** The option of `options` that the word at `index` is (or holds), or undefined. */
function optionAt(row: ProgramRow, options: readonly OptionThatRuns[], words: readonly ShellWord[], index: number): OptionThatRuns | undefined {
  const text = words[index]!.text;
  const next = words[index + 1]?.text;
  const valueFits = (option: OptionThatRuns, value: string | undefined) => option.value === undefined || (value !== undefined && option.value.test(value));
  if (text.startsWith('--') && text.length > 2) {
    const equals = text.indexOf('=');
    const typed = equals < 0 ? text : text.slice(0, equals);
    const value = equals < 0 ? next : text.slice(equals + 1);
    // An exact name wins over an abbreviation of a longer one (`--exec` is not `--exec-path`).
    const exact = options.filter((option) => option.names.includes(typed));
    if (exact.length > 0) return exact.find((option) => valueFits(option, value));
    return options.find((option) => option.names.some((name) => name.startsWith('--') && name.startsWith(typed)) && valueFits(option, value));
  }
  if (text.startsWith('+') && text.length > 1) return options.find((option) => option.names.includes('+'));
  const oneDashLong = options.find((option) => option.names.some((name) => /^-[^-].+/.test(name) && (text === name || text.startsWith(`${name}=`))) && valueFits(option, next));
  if (oneDashLong !== undefined) return oneDashLong;
  const oldStyle = index === 1 && row.oldStyleFirstWord === true && /^[A-Za-z]+$/.test(text);
  if (!oldStyle && !/^-[^-]/.test(text)) return undefined;
  const cluster = oldStyle ? text : text.slice(1);
  for (let position = 0; position < cluster.length; position += 1) {
    const letter = cluster[position]!;
    const attached = cluster.slice(position + 1);
    const value = oldStyle || attached === '' ? next : attached;
    const found = options.find((option) => option.names.includes(`-${letter}`) && letterCounts(option, position, cluster) && valueFits(option, value));
    if (found !== undefined) return found;
    // In the old style every letter is an option; their values are the words that follow.
    if (!oldStyle && row.shortWithValue?.includes(letter) === true) return undefined;
  }
  return undefined;
}

function letterCounts(option: OptionThatRuns, position: number, cluster: string): boolean {
  if (option.letter === 'alone') return cluster.length === 1;
  return option.letter !== 'first' || position === 0;
}

/** Whether an interpreter is given no script operand (or `-`), so that it reads its program from stdin. */
function readsStdin(stdin: NonNullable<ProgramRow['stdin']>, words: readonly ShellWord[]): boolean {
  for (let index = 1; index < words.length; index += 1) {
    const text = words[index]!.text;
    if (text === '-') return true;
    if (text === '--') return index + 1 >= words.length || words[index + 1]!.text === '-';
    if (!text.startsWith('-')) return false;
    if (text.startsWith('--')) {
      const typed = text.split('=')[0]!;
      if (stdin.noProgramNeeded.includes(typed)) return false;
      if (stdin.longWithValue?.includes(typed) === true && !text.includes('=')) index += 1;
      continue;
    }
    for (let position = 1; position < text.length; position += 1) {
      const letter = text[position]!;
      if (stdin.noProgramNeeded.includes(`-${letter}`)) return false;
      if (stdin.shortWithValue.includes(letter)) {
        if (position === text.length - 1) index += 1;
        break;
      }
    }
  }
  return true;
}
