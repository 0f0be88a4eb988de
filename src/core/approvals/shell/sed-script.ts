import type { ShellWord } from '../../../contract/shell-analysis';

/**
 * Reads the scripts a GNU sed command is given and finds the commands that run a program or write a
 * file: the `e` command and the `e` flag of `s` run the shell (`sed -n '1e id'`, `sed 's/x/id/e'`),
 * and `w`, `W` and the `w` flag of `s` write files the line shows as no redirection. The reader is a
 * whitelist of GNU sed 4.9's grammar: anything it does not recognise (an unknown command, an
 * unterminated `s`) is reported too, so a misreading can only make the line ask.
 */

/** Long options of GNU sed, to read the abbreviations getopt accepts (`--expr` for `--expression`). */
const LONG_OPTIONS = [
  'expression', 'file', 'in-place', 'line-length', 'null-data', 'zero-terminated', 'posix', 'quiet', 'silent',
  'regexp-extended', 'separate', 'sandbox', 'unbuffered', 'debug', 'follow-symlinks', 'binary', 'help', 'version',
];

/** Commands that take no argument, or an optional number (l, q, Q, L). */
const PLAIN_COMMANDS = '=dDgGhHnNpPxzFlqQL';

/** Files GNU sed writes to the call's own output, not to disk. */
const OWN_OUTPUT = new Set(['/dev/stdout', '/dev/stderr']);

/** Why the sed command `words` must be seen by a person, or undefined. Computed words were refused before. */
export function sedProblem(words: readonly ShellWord[]): string | undefined {
  const scripts: string[] = [];
  const operands: string[] = [];
  let optionsEnded = false;
  for (let index = 1; index < words.length; index += 1) {
    const text = words[index]!.text;
    if (optionsEnded || text === '-' || !text.startsWith('-')) {
      operands.push(text);
    } else if (text === '--') {
      optionsEnded = true;
    } else if (text.startsWith('--')) {
      const [typed = '', attached] = splitOnce(text.slice(2));
      const meant = LONG_OPTIONS.filter((name) => name.startsWith(typed));
      if (meant.length === 1 && meant[0] === 'expression') scripts.push(attached ?? words[(index += 1)]?.text ?? '');
      else if (meant.length === 1 && meant[0] === 'line-length' && attached === undefined) index += 1;
    } else {
      // A short cluster, read as getopt does: -e and -l take a value, attached or in the next word.
      for (let position = 1; position < text.length; position += 1) {
        const letter = text[position]!;
        const rest = text.slice(position + 1);
        if (letter === 'e') scripts.push(rest !== '' ? rest : (words[(index += 1)]?.text ?? ''));
        else if (letter === 'l' && rest === '') index += 1;
        // -i takes an optional suffix, attached only.
        if (letter === 'e' || letter === 'l' || letter === 'i') break;
      }
    }
  }
  // Without -e (or -f, which the option table refuses), the first operand is the script.
  if (scripts.length === 0 && operands[0] !== undefined) scripts.push(operands[0]);
  for (const script of scripts) {
    const problem = sedScriptProblem(script);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** Why one sed script must be seen by a person, or undefined when it only edits text. */
export function sedScriptProblem(script: string): string | undefined {
  const reader = new ScriptReader(script);
  try {
    return reader.read();
  } catch (error) {
    if (error instanceof NotRead) return `sed script "${script.slice(0, 60)}": ${error.message}, so it is not analyzed`;
    throw error;
  }
}

class NotRead extends Error {}

class ScriptReader {
  private at = 0;
  /** By code point: GNU sed takes any character, an emoji too, as the delimiter of `s`. */
  private readonly text: readonly string[];

  constructor(script: string) {
    this.text = Array.from(script);
  }

  read(): string | undefined {
    for (;;) {
      this.skip(' \t\n;');
      const char = this.text[this.at];
      if (char === undefined) return undefined;
      if (char === '#') {
        this.toEndOfLine();
        continue;
      }
      this.addresses();
      const command = this.text[this.at++];
      if (command === undefined) throw new NotRead('an address has no command');
      const problem = this.command(command);
      if (problem !== undefined) return problem;
      // A block's first command may follow its `{` directly (`1~2{p;q}`).
      if (command === '{') continue;
      this.skip(' \t');
      const next = this.text[this.at];
      if (next !== undefined && !'\n;}#'.includes(next)) throw new NotRead(`unexpected "${next}" after the ${command} command`);
    }
  }

  private command(command: string): string | undefined {
    if (command === '{' || command === '}') return undefined;
    if (PLAIN_COMMANDS.includes(command)) {
      if ('lqQL'.includes(command)) {
        this.skip(' \t');
        this.digits();
      }
      return undefined;
    }
    switch (command) {
      case 'e':
        return "sed's e command runs a shell command";
      case 'a':
      case 'i':
      case 'c':
        return this.text1();
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'v':
        return this.label();
      case 'r':
      case 'R':
        this.toEndOfLine();
        return undefined;
      case 'w':
      case 'W':
        return this.writes(`sed's ${command} command`);
      case 's':
        return this.substitute();
      case 'y': {
        const delimiter = this.delimiter('y');
        this.part(delimiter, 'y');
        this.part(delimiter, 'y');
        return undefined;
      }
      default:
        throw new NotRead(`"${command}" is not a sed command it knows`);
    }
  }

  /** `a`, `i`, `c`: text to the end of the line, where a backslash-newline continues it. */
  private text1(): undefined {
    while (this.at < this.text.length && this.text[this.at] !== '\n') this.at += this.text[this.at] === '\\' ? 2 : 1;
    return undefined;
  }

  /** A label ends at a semicolon or line break; ending it at a space too only reads more as commands. */
  private label(): undefined {
    this.skip(' \t');
    while (this.at < this.text.length && !' \t\n;}'.includes(this.text[this.at]!)) this.at += 1;
    return undefined;
  }

  private substitute(): string | undefined {
    const delimiter = this.delimiter('s');
    this.part(delimiter, 's');
    this.part(delimiter, 's');
    for (;;) {
      const flag = this.text[this.at];
      if (flag === 'e') return "the s command's flag e runs the pattern space as a shell command";
      if (flag === 'w') {
        this.at += 1;
        return this.writes("the s command's flag w");
      }
      if (flag === undefined || !/^[gpiImM0-9]$/.test(flag)) return undefined;
      this.at += 1;
    }
  }

  /** `w FILE` to the end of the line (a semicolon is part of the name). */
  private writes(what: string): string | undefined {
    this.skip(' \t');
    const start = this.at;
    this.toEndOfLine();
    const file = this.text.slice(start, this.at).join('');
    return OWN_OUTPUT.has(file) ? undefined : `${what} writes the file "${file}", which the line shows as no redirection`;
  }

  private delimiter(command: string): string {
    const delimiter = this.text[this.at++];
    if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') throw new NotRead(`the ${command} command has no delimiter`);
    return delimiter;
  }

  /** One part of `s` or `y` up to the delimiter; a backslash takes the next character whatever it is. */
  private part(delimiter: string, command: string): void {
    for (;;) {
      const char = this.text[this.at++];
      if (char === undefined || (char === '\n' && delimiter !== '\n')) throw new NotRead(`the ${command} command is unterminated`);
      if (char === delimiter) return;
      if (char === '\\') this.at += 1;
    }
  }

  /** `1`, `$`, `/re/I`, `\cREc`, `first~step`, then `,` and a second one (also `+N`, `~N`), then `!`s. */
  private addresses(): void {
    if (this.address()) {
      this.skip(' \t');
      if (this.text[this.at] === ',') {
        this.at += 1;
        this.skip(' \t');
        if ('+~'.includes(this.text[this.at] ?? '-')) {
          this.at += 1;
          if (!this.digits()) throw new NotRead('an address has no number after + or ~');
        } else if (!this.address()) throw new NotRead('an address range has no end');
      }
    }
    this.skip(' \t');
    while (this.text[this.at] === '!') {
      this.at += 1;
      this.skip(' \t');
    }
  }

  private address(): boolean {
    const char = this.text[this.at];
    if (char === '$') {
      this.at += 1;
      return true;
    }
    if (char === '/' || char === '\\') {
      this.at += 1;
      const delimiter = char === '/' ? '/' : this.delimiter('address');
      this.part(delimiter, 'address');
      while ('IM'.includes(this.text[this.at] ?? '-')) this.at += 1;
      return true;
    }
    if (!this.digits()) return false;
    if (this.text[this.at] === '~') {
      this.at += 1;
      this.digits();
    }
    return true;
  }

  private digits(): boolean {
    const start = this.at;
    while (/[0-9]/.test(this.text[this.at] ?? '')) this.at += 1;
    return this.at > start;
  }

  private skip(chars: string): void {
    while (this.at < this.text.length && chars.includes(this.text[this.at]!)) this.at += 1;
  }

  private toEndOfLine(): void {
    while (this.at < this.text.length && this.text[this.at] !== '\n') this.at += 1;
  }
}

function splitOnce(text: string): [string, string | undefined] {
  const equals = text.indexOf('=');
  return equals < 0 ? [text, undefined] : [text.slice(0, equals), text.slice(equals + 1)];
}
