import type { SyntaxNode } from './bash-parser';
import type { ShellWord } from '../../../contract/shell-analysis';

/**
 * Turns one word of the syntax tree into the word the shell will pass to the program: quotes and
 * escapes removed, and flagged when some part of it is only known at run time or is a file glob.
 *
 * The word is built as pieces, one per character, each remembering whether it was quoted, because
 * what the shell expands afterwards (globs, `~`, `{a,b}`) depends on exactly that.
 */
type Piece = { char: string; quoted: boolean } | { expansion: string };

/** Node types whose whole value is computed by the shell at run time. */
const EXPANSIONS = new Set([
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
  'brace_expression',
  // $"..." is translated through the locale's message catalogue before use.
  'translated_string',
]);

/** Node types whose text is a run of unquoted characters (with backslash escapes). */
const BARE = new Set(['word', 'extglob_pattern', 'regex', 'test_operator', 'variable_name', '$', '==', '=~', '=']);

/** `$'...'` escapes that stand for one known character; any other escape makes the word computed. */
const ANSI_C_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v',
  '\\': '\\', "'": "'", '"': '"', '?': '?',
};

export function readWord(node: SyntaxNode): ShellWord {
  const pieces = piecesOf(node);
  const text = pieces.map((piece) => ('char' in piece ? piece.char : piece.expansion)).join('');
  const literal = pieces.every((piece) => 'char' in piece) && !expandsTilde(pieces) && !expandsBraces(pieces);
  const glob = pieces.some((piece) => 'char' in piece && !piece.quoted && '*?['.includes(piece.char));
  return { text, literal, glob };
}

function piecesOf(node: SyntaxNode): Piece[] {
  if (node.type === 'number' && node.namedChildCount > 0) return [{ expansion: node.text }];
  if (node.type === 'number' || BARE.has(node.type)) return unquoted(node.text);
  if (EXPANSIONS.has(node.type)) return [{ expansion: node.text }];
  switch (node.type) {
    case 'command_name':
    case 'concatenation':
      return node.children.flatMap((child) => (child === null ? [] : piecesOf(child)));
    case 'raw_string':
      return quoted(node.text.slice(1, -1));
    case 'string':
      return doubleQuotedString(node);
    case 'ansi_c_string':
      return ansiC(node.text.slice(2, -1)) ?? [{ expansion: node.text }];
    case 'variable_assignment': {
      const value = node.childForFieldName('value');
      const head = node.text.slice(0, value === null ? undefined : value.startIndex - node.startIndex);
      return [...unquoted(head), ...(value === null ? [] : value.type === 'array' ? [{ expansion: value.text }] : piecesOf(value))];
    }
    default:
      // Anything else is treated as computed; the analyzer's node whitelist reports it separately.
      return [{ expansion: node.text }];
  }
}

/** Unquoted text: a backslash quotes the next character, and backslash-newline disappears. */
function unquoted(text: string): Piece[] {
  const pieces: Piece[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    const next = text[index + 1];
    if (char === '\\' && next !== undefined) {
      if (next !== '\n') pieces.push({ char: next, quoted: true });
      index += 1;
    } else {
      pieces.push({ char, quoted: false });
    }
  }
  return pieces;
}

function quoted(text: string): Piece[] {
  return [...text].map((char) => ({ char, quoted: true }));
}

/**
 * A "..." string, read from its source text: the grammar splits the content at line breaks and leaves
 * the line breaks out of every child, so only the text between the expansions is complete.
 */
function doubleQuotedString(node: SyntaxNode): Piece[] {
  const pieces: Piece[] = [];
  let cursor = 1;
  for (const child of node.namedChildren) {
    if (child === null || child.type === 'string_content') continue;
    const start = child.startIndex - node.startIndex;
    pieces.push(...doubleQuoted(node.text.slice(cursor, start)), ...piecesOf(child));
    cursor = child.endIndex - node.startIndex;
  }
  return [...pieces, ...doubleQuoted(node.text.slice(cursor, node.text.endsWith('"') ? -1 : undefined))];
}

/** Inside double quotes a backslash only escapes `$`, backquote, `"`, `\` and newline. */
function doubleQuoted(text: string): Piece[] {
  const pieces: Piece[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    const next = text[index + 1];
    if (char === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
      if (next !== '\n') pieces.push({ char: next, quoted: true });
      index += 1;
    } else {
      pieces.push({ char, quoted: true });
    }
  }
  return pieces;
}

function ansiC(body: string): Piece[] | undefined {
  const pieces: Piece[] = [];
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index]!;
    if (char !== '\\') {
      pieces.push({ char, quoted: true });
      continue;
    }
    const decoded = ANSI_C_ESCAPES[body[index + 1] ?? ''];
    // Numeric and control escapes (\x41, \101, \u00e9, \cA) are rare enough to treat as computed.
    if (decoded === undefined) return undefined;
    pieces.push({ char: decoded, quoted: true });
    index += 1;
  }
  return pieces;
}

const isBare = (piece: Piece | undefined, char: string) => piece !== undefined && 'char' in piece && !piece.quoted && piece.char === char;

/** `~` at the start, or after `=` or `:` (as in `PATH=~/bin:~/x`), becomes a home directory. */
function expandsTilde(pieces: Piece[]): boolean {
  return pieces.some((piece, index) => isBare(piece, '~') && (index === 0 || isBare(pieces[index - 1], '=') || isBare(pieces[index - 1], ':')));
}

/** `{a,b}` and `{1..3}` become several words in bash; `{}` and `{x}` stay as they are. */
function expandsBraces(pieces: Piece[]): boolean {
  const open = pieces.findIndex((piece) => isBare(piece, '{'));
  if (open < 0) return false;
  const close = pieces.map((piece) => isBare(piece, '}')).lastIndexOf(true);
  const inside = pieces.slice(open + 1, close);
  return close > open && inside.some((piece, index) => isBare(piece, ',') || (isBare(piece, '.') && isBare(inside[index + 1], '.')));
}
