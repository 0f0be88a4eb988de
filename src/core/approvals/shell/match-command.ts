import { programName, wrappedCommands } from './command-wrappers';
import type { CommandPattern, ShellWord, SimpleCommand } from '../../../contract/shell-analysis';

/**
 * Whether a rule's words describe one simple command. Pure: it runs in workflow code.
 *
 * Both sides are first normalised into a program, a set of short flags (`-rf` = `-fr` = `-r -f`) and
 * the other words in order (long options and operands). The two modes then lean opposite ways:
 * 'allow' must never let anything extra through, so everything must be equal; 'reject' must catch
 * variants, so it looks through wrappers (`sudo`, `xargs`, ...), compares program names without their
 * directory, and accepts extra flags and words around the ones the rule names.
 */
export type MatchMode = 'allow' | 'reject';

interface NormalisedWords {
  flags: Set<string>;
  others: ShellWord[];
}

/**
 * Spellings that mean the same flag, used by 'reject' only: a rule against `rm -rf /` must also stop
 * `rm -Rf /` and `rm --recursive --force /`. 'allow' keeps exact spellings, which is merely stricter.
 */
const FLAG_ALIASES: Readonly<Record<string, { letters?: Record<string, string>; long?: Record<string, string> }>> = {
  rm: { letters: { R: 'r' }, long: { '--recursive': 'r', '--force': 'f', '--dir': 'd' } },
  cp: { letters: { R: 'r' }, long: { '--recursive': 'r', '--force': 'f' } },
  chmod: { long: { '--recursive': 'R' } },
  chown: { long: { '--recursive': 'R' } },
  chgrp: { long: { '--recursive': 'R' } },
  git: { long: { '--force': 'f' } },
};

const SHORT_FLAGS = /^-[A-Za-z]+$/;
/** Where a word holding a command line or a script may be split into the words of a command. */
const TOKEN_BREAK = /[\s"'`;|&(){}<>=,]+/;
/** Wrappers inside wrappers are rare; the bound only guards against a pathological line. */
const MAX_UNWRAPPED = 32;

/**
 * Wildcards, in both modes: a `*` inside a pattern word matches any run of characters (`test*`
 * matches `test` and `test:unit`); a word that is exactly `*` matches any one word. When the last
 * pattern word ends with `*`, whatever follows it is accepted too, extra flags included, so
 * `npm run test*` matches `npm run test -- --watch`; a last word that is exactly `*` may also match
 * nothing (`ls *` matches `ls`).
 */
export function commandMatches(pattern: CommandPattern, command: SimpleCommand, mode: MatchMode): boolean {
  return mode === 'allow' ? allowMatches(pattern, command) : rejectMatches(pattern, command);
}

function allowMatches(pattern: CommandPattern, command: SimpleCommand): boolean {
  const [program, ...rest] = command.words;
  if (program === undefined || command.assignments.length > 0) return false;
  if (!wordMatches(pattern.words[0]!, program, 'allow')) return false;
  const wanted = normalise(pattern.words.slice(1).map(patternWord));
  const found = normalise(rest);
  if (!endsWithStar(pattern)) {
    return (
      sameSet(wanted.flags, found.flags) &&
      wanted.others.length === found.others.length &&
      wanted.others.every((word, index) => wordMatches(word.text, found.others[index]!, 'allow'))
    );
  }
  // The trailing star accepts whatever follows, extra flags included, as long as it is all literal.
  if (![...wanted.flags].every((flag) => found.flags.has(flag))) return false;
  const fixed = wanted.others.slice(0, -1);
  const last = wanted.others.at(-1);
  if (found.others.length < fixed.length) return false;
  if (!fixed.every((word, index) => wordMatches(word.text, found.others[index]!, 'allow'))) return false;
  const remaining = found.others.slice(fixed.length);
  if (last !== undefined && last.text !== '*') {
    const next = remaining.shift();
    if (next === undefined || !wordMatches(last.text, next, 'allow')) return false;
  }
  return remaining.every((word) => word.literal);
}

function rejectMatches(pattern: CommandPattern, command: SimpleCommand): boolean {
  const candidates: ShellWord[][] = [command.words];
  for (let index = 0; index < candidates.length && candidates.length < MAX_UNWRAPPED; index += 1) {
    candidates.push(...wrappedCommands(candidates[index]!).inner);
  }
  if (candidates.some((words) => rejectMatchesWords(pattern, words))) return true;
  // A wrapper this file does not know (`setsid rm`), or a command inside one word (`env -S 'rm x'`),
  // still names the program: a reject rule looks for it at every word, split at white space too.
  // Words are also split where a script language would (`awk '{system("rm x")}'`, `--exec=rm`).
  const tokens = command.words.flatMap((word) => (word.literal && TOKEN_BREAK.test(word.text) ? word.text.split(TOKEN_BREAK).filter(Boolean).map(patternWord) : [word]));
  return tokens.some((word, index) => index > 0 && word.literal && rejectMatchesWords(pattern, tokens.slice(index)));
}

function rejectMatchesWords(pattern: CommandPattern, words: readonly ShellWord[]): boolean {
  const [program, ...rest] = words;
  if (program === undefined) return false;
  const name = { ...program, text: programName(program) };
  if (!wordMatches(programName(patternWord(pattern.words[0]!)), name, 'reject')) return false;
  const aliases = FLAG_ALIASES[name.text];
  const wanted = normalise(pattern.words.slice(1).map(patternWord), aliases);
  const found = normalise(rest, aliases);
  if (![...wanted.flags].every((flag) => found.flags.has(flag))) return false;
  // A lone trailing `*` means "and anything after", which a subsequence accepts anyway.
  const others = endsWithStar(pattern) && wanted.others.at(-1)?.text === '*' ? wanted.others.slice(0, -1) : wanted.others;
  let position = 0;
  for (const word of found.others) {
    if (position < others.length && wordMatches(others[position]!.text, word, 'reject')) position += 1;
  }
  return position === others.length;
}

/** Splits words after the program into short flags and everything else; `--` ends the flags. */
function normalise(words: readonly ShellWord[], aliases?: (typeof FLAG_ALIASES)[string]): NormalisedWords {
  const flags = new Set<string>();
  const others: ShellWord[] = [];
  let optionsEnded = false;
  for (const word of words) {
    const plain = word.literal && !word.glob && !optionsEnded;
    if (plain && word.text === '--') optionsEnded = true;
    const longAlias = plain ? aliases?.long?.[word.text] : undefined;
    if (longAlias !== undefined) {
      flags.add(longAlias);
    } else if (plain && SHORT_FLAGS.test(word.text)) {
      for (const letter of word.text.slice(1)) flags.add(aliases?.letters?.[letter] ?? letter);
    } else {
      others.push(word);
    }
  }
  return { flags, others };
}

/**
 * One pattern word against one command word. A `*` in the pattern matches any run of characters and
 * is the only way to match a word the shell will expand as a glob. A computed word ($x) is unknown:
 * 'allow' never accepts it; 'reject' lets a bare `*` (any word at all) stand for it.
 */
function wordMatches(pattern: string, word: ShellWord, mode: MatchMode): boolean {
  if (!word.literal) return mode === 'reject' && pattern === '*';
  if (pattern.includes('*')) return wildcardRegExp(pattern).test(word.text);
  // 'reject' also catches a glob that could expand to the forbidden word (`rm -rf /e*` for `/etc`).
  if (word.glob) return mode === 'reject' && globRegExp(word.text).test(pattern);
  return pattern === word.text;
}

function wildcardRegExp(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`, 's');
}

/**
 * The shell's glob (`*`, `?`, `[...]`) as a regular expression. Quoting is gone from the word's
 * text, so a quoted `*` counts as a glob too; that only makes 'reject' catch more.
 */
function globRegExp(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index += 1) {
    const char = glob[index]!;
    const close = char === '[' ? glob.indexOf(']', index + 2) : -1;
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else if (close > 0) {
      const body = glob.slice(index + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      source += `[${negated ? '^' : ''}${escapeClass(negated ? body.slice(1) : body)}]`;
      index = close;
    } else source += escapeRegExp(char);
  }
  return new RegExp(`^${source}$`, 's');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function escapeClass(body: string): string {
  return body.replace(/[\\\]^]/g, '\\$&');
}

function patternWord(text: string): ShellWord {
  return { text, literal: true, glob: false };
}

function endsWithStar(pattern: CommandPattern): boolean {
  return pattern.words.at(-1)!.endsWith('*');
}

function sameSet(left: Set<string>, right: Set<string>): boolean {
  return left.size === right.size && [...left].every((item) => right.has(item));
}

/** The rule as one line, for messages. */
export function describePattern(pattern: CommandPattern): string {
  return pattern.words.map((word) => (word.includes('*') ? word : quoteForDisplay(word))).join(' ');
}

/** The command as one line, for messages: assignments, then words quoted where the shell would need it. */
export function describeCommand(command: SimpleCommand): string {
  const words = command.words.map((word) => (word.literal && !word.glob ? quoteForDisplay(word.text) : word.text));
  return [...command.assignments, ...words].join(' ').replace(/\s*\n\s*/g, ' ');
}

function quoteForDisplay(text: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
