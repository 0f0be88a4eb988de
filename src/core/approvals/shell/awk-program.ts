import type { ShellWord } from '../../../contract/shell-analysis';

/**
 * Reads the program an awk command (awk, gawk, mawk, nawk) is given and finds what runs a program or
 * writes a file: `system(...)`, a pipe to or from a command (`print | "cmd"`, `"cmd" | getline`,
 * gawk's `|&`), gawk's `@load`/`@include` and indirect calls (`@f()` can call `system`), and
 * `print > file`. The program is split into tokens as awk's grammar does: a `/` starts a regular
 * expression only where an operand is expected, so `a / b` is a division and the pipe after it is
 * seen. Two checks do not rest on the tokens at all: the word `system` and the character `@`
 * anywhere in the text (even in a string) make the line ask.
 */

/** Options whose value is the next word unless attached (`-F:`), and those whose value is program text. */
const SHORT_WITH_VALUE = 'FvfWEile';
const LONG_WITH_VALUE = ['field-separator', 'assign', 'file', 'exec', 'include', 'load', 'source'];

/** Keywords after which an operand (so a regular expression) comes next. */
const OPERAND_NEXT = new Set(['print', 'printf', 'return', 'case', 'do', 'else', 'in', 'delete', 'exit']);

/** Output redirections to the call's own output, not to a file. */
const OWN_OUTPUT = new Set(['"/dev/stdout"', '"/dev/stderr"', '"-"']);

const OPERATORS = [
  '**=', '||', '&&', '|&', '++', '--', '+=', '-=', '*=', '/=', '%=', '^=', '**', '==', '!=', '<=', '>=', '>>', '!~',
  '|', '<', '>', '!', '~', '?', ':', ',', ';', '{', '}', '(', ')', '[', ']', '=', '+', '-', '*', '/', '%', '^', '$',
];

interface Token {
  kind: 'word' | 'number' | 'string' | 'regex' | 'operator' | 'newline';
  text: string;
  /** For `)`: it closes the condition of if, while or for, so a statement (maybe a regex) follows. */
  closesCondition?: boolean;
}

class NotRead extends Error {}

/** Why the awk command `words` must be seen by a person, or undefined. Computed words were refused before. */
export function awkProblem(words: readonly ShellWord[]): string | undefined {
  for (const program of awkPrograms(words)) {
    const problem = awkProgramProblem(program);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** The program texts: every -e/--source value, or else the first operand (unless -f or -E names a file). */
function awkPrograms(words: readonly ShellWord[]): string[] {
  const given: string[] = [];
  let fromFile = false;
  for (let index = 1; index < words.length; index += 1) {
    const text = words[index]!.text;
    if (text === '--' || text === '-' || !text.startsWith('-')) {
      const operand = text === '--' ? words[index + 1]?.text : text;
      return given.length > 0 || fromFile || operand === undefined ? given : [operand];
    }
    if (text.startsWith('--')) {
      const [typed = '', attached] = [text.slice(2).split('=')[0], text.includes('=') ? text.slice(text.indexOf('=') + 1) : undefined];
      const meant = LONG_WITH_VALUE.find((name) => name.startsWith(typed));
      if (meant === undefined) continue;
      const value = attached ?? words[(index += 1)]?.text ?? '';
      if (meant === 'source') given.push(value);
      fromFile ||= meant === 'file' || meant === 'exec';
      continue;
    }
    for (let position = 1; position < text.length; position += 1) {
      const letter = text[position]!;
      if (!SHORT_WITH_VALUE.includes(letter)) continue;
      const rest = text.slice(position + 1);
      const value = rest !== '' ? rest : (words[(index += 1)]?.text ?? '');
      if (letter === 'e') given.push(value);
      fromFile ||= letter === 'f' || letter === 'E';
      break;
    }
  }
  return given;
}

/** Why one awk program must be seen by a person, or undefined when it only reads and prints. */
export function awkProgramProblem(program: string): string | undefined {
  if (/\bsystem\b/.test(program)) return 'awk calls system(), which runs a shell command';
  if (program.includes('@')) return "awk's @ (gawk's @load, @include and indirect calls like @f()) loads code or calls a function chosen at run time";
  let tokens: Token[];
  try {
    tokens = tokenize(program);
  } catch (error) {
    if (error instanceof NotRead) return `awk program "${program.slice(0, 60)}": ${error.message}, so it is not analyzed`;
    throw error;
  }
  if (tokens.some((token) => token.kind === 'operator' && (token.text === '|' || token.text === '|&'))) {
    return "awk's | (a pipe to or from a command: print | \"cmd\", \"cmd\" | getline) runs a shell command";
  }
  return printRedirection(tokens);
}

/** `print ... > file` and `>>`: a `>` outside parentheses in a print statement redirects its output. */
function printRedirection(tokens: readonly Token[]): string | undefined {
  for (let index = 0; index < tokens.length; index += 1) {
    if (tokens[index]!.kind !== 'word' || !['print', 'printf'].includes(tokens[index]!.text)) continue;
    let depth = 0;
    for (let next = index + 1; next < tokens.length; next += 1) {
      const { kind, text } = tokens[next]!;
      if (kind === 'newline' || (depth === 0 && (text === ';' || text === '}'))) break;
      if (kind !== 'operator') continue;
      if (text === '(' || text === '[') depth += 1;
      if (text === ')' || text === ']') depth -= 1;
      if (depth === 0 && (text === '>' || text === '>>')) {
        const target = tokens[next + 1];
        if (target?.kind === 'string' && OWN_OUTPUT.has(target.text)) continue;
        return `awk's ${tokens[index]!.text} ${text} writes a file, which the line shows as no redirection`;
      }
    }
  }
  return undefined;
}

function tokenize(program: string): Token[] {
  const tokens: Token[] = [];
  const conditions: boolean[] = [];
  let at = 0;
  const push = (token: Token) => tokens.push(token);
  while (at < program.length) {
    const char = program[at]!;
    const rest = program.slice(at);
    if (char === ' ' || char === '\t' || char === '\r') at += 1;
    else if (rest.startsWith('\\\n')) at += 2;
    else if (char === '\n') {
      push({ kind: 'newline', text: '\n' });
      at += 1;
    } else if (char === '#') {
      while (at < program.length && program[at] !== '\n') at += 1;
    } else if (char === '"') {
      const end = endOfString(program, at);
      push({ kind: 'string', text: program.slice(at, end) });
      at = end;
    } else if (char === '/' && operandExpected(tokens.at(-1))) {
      const end = endOfRegex(program, at);
      push({ kind: 'regex', text: program.slice(at, end) });
      at = end;
    } else if (/[A-Za-z_]/.test(char)) {
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest)![0];
      push({ kind: 'word', text: word });
      at += word.length;
    } else if (/[0-9.]/.test(char) && /^(\d|\.\d)/.test(rest)) {
      const number = /^(0[xX][0-9a-fA-F]+|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)/.exec(rest)![0];
      push({ kind: 'number', text: number });
      at += number.length;
    } else {
      const operator = OPERATORS.find((candidate) => rest.startsWith(candidate));
      if (operator === undefined) throw new NotRead(`the character "${char}" is not awk syntax it reads`);
      const previous = tokens.at(-1);
      if (operator === '(') conditions.push(previous?.kind === 'word' && ['if', 'while', 'for'].includes(previous.text));
      const token: Token = { kind: 'operator', text: operator };
      if (operator === ')') token.closesCondition = conditions.pop() === true;
      push(token);
      at += operator.length;
    }
  }
  return tokens;
}

/** Whether a `/` after `previous` starts a regular expression (an operand) rather than dividing. */
function operandExpected(previous: Token | undefined): boolean {
  if (previous === undefined || previous.kind === 'newline') return true;
  if (previous.kind === 'word') return OPERAND_NEXT.has(previous.text);
  if (previous.kind !== 'operator') return false;
  if (previous.text === ')') return previous.closesCondition === true;
  return !['$', ']', '++', '--'].includes(previous.text);
}

function endOfString(program: string, start: number): number {
  for (let at = start + 1; at < program.length; at += 1) {
    if (program[at] === '\\') at += 1;
    else if (program[at] === '"') return at + 1;
    else if (program[at] === '\n') break;
  }
  throw new NotRead('a string is unterminated');
}

/**
 * A regular expression ends at a `/` outside brackets. Awks differ on a backslash inside brackets
 * (an escape in gawk, a plain character in POSIX), so a bracket holding one is not read at all.
 */
function endOfRegex(program: string, start: number): number {
  for (let at = start + 1; at < program.length; at += 1) {
    const char = program[at]!;
    if (char === '\n') break;
    if (char === '\\') at += 1;
    else if (char === '/') return at + 1;
    else if (char === '[') at = endOfBracket(program, at);
  }
  throw new NotRead('a regular expression is unterminated');
}

/** The index of the `]` closing the bracket expression that opens at `start`. */
function endOfBracket(program: string, start: number): number {
  let at = start + 1;
  if (program[at] === '^') at += 1;
  if (program[at] === ']') at += 1;
  for (; at < program.length && program[at] !== '\n'; at += 1) {
    const char = program[at]!;
    if (char === '\\') throw new NotRead('a bracket expression holds a backslash, which awks read differently');
    const close = char === '[' && ':.='.includes(program[at + 1] ?? '-') ? program.indexOf(`${program[at + 1]}]`, at + 2) : -1;
    if (close > 0) at = close + 1;
    else if (char === ']') return at;
  }
  throw new NotRead('a bracket expression is unterminated');
}
