import { loopVariableProblem } from './assigned-variables';
import type { SyntaxNode } from './bash-parser';

/**
 * Syntax the analyzer does not model exactly, so a line holding it always reaches a person. Each of
 * these has been, or could be, read one way by the grammar and another by bash: `$'\''` and
 * `"${x-'}"` split a line differently (issue 18, bypasses 1 and 2), and arithmetic evaluates
 * variable values and array subscripts as code (`$((a[$(rm x)]))` runs `rm`).
 */

/** `${name}`, `${#name}` and the special parameters: plain substitutions with no operator. */
const PLAIN_EXPANSION = /^\$\{#?([A-Za-z_][A-Za-z0-9_]*|[0-9]|[#?$!@*-])\}$/;

/** Arithmetic made only of numbers and operators that assign nothing. */
const CONSTANT_ARITHMETIC = /^[\s\d+\-*/%()<>!&|^~?:]*$/;

/** Why one node of the tree is not modelled exactly, or undefined when it is. */
export function unmodelledNode(node: SyntaxNode): string | undefined {
  switch (node.type) {
    case 'ansi_c_string':
      return `ANSI-C quoting ($'...') is not analyzed; write the text with plain '...' quotes`;
    case 'translated_string':
      return `$"..." is translated through the locale at run time; use plain "..." quotes`;
    case 'expansion':
      return PLAIN_EXPANSION.test(node.text) ? undefined : 'a parameter expansion with an operator (${x-...}, ${x/...}, ${!x}, ...) is not analyzed; use plain $x';
    case 'arithmetic_expansion':
      return constantArithmetic(node.text) ? undefined : 'arithmetic that names variables or assigns evaluates their values as code in bash; use numbers only';
    case 'process_substitution':
      return 'process substitution (<(...), >(...)) is not analyzed; use a pipe or a file';
    case 'function_definition':
      return 'defining a function is not analyzed: a later command with an allowed name would run it';
    case 'c_style_for_statement':
      return 'a for (( ...; ...; ... )) loop evaluates arithmetic; use for x in ...';
    case 'for_statement':
      // `for PATH in /tmp; do ls; done` sets PATH for the loop's body.
      return loopVariableProblem(node.childForFieldName('variable')?.text);
    default:
      return undefined;
  }
}

function constantArithmetic(text: string): boolean {
  const inner = text.startsWith('$((') ? text.slice(3, -2) : text.startsWith('$[') ? text.slice(2, -1) : text;
  if (!CONSTANT_ARITHMETIC.test(inner.replace(/[=!<>]=/g, ' '))) return false;
  return !/[+-]{2}/.test(inner) && !inner.replace(/[=!<>]=/g, '').includes('=');
}

/**
 * A line that starts with - or + (bash -c reads it as options), or characters bash and the grammar may read differently: control characters (a carriage return is a
 * word character to bash) and Unicode spaces or invisible marks (one word to bash, maybe two to a
 * reader). A line with any of them asks.
 */
export function unusualCharacters(source: string): string | undefined {
  // `bash -c "-x ..."` reads a script that starts with - or + as its own options.
  if (/^[-+]/.test(source)) return 'the line starts with - or +, which bash reads as its own options; start with the command';
  const match = /[\p{Cc}\p{Cf}\p{Z}]/u.exec(source.replace(/[ \t\n]/g, ''));
  if (match === null) return undefined;
  const code = match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return `the line holds the invisible or control character U+${code}, which bash reads as part of a word; remove it`;
}
