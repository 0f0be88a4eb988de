import type { SyntaxNode } from './bash-parser';
import type { ShellWord } from '../../../contract/shell-analysis';
import { readWord } from './shell-word';

const EXPRESSION_TYPES = new Set(['binary_expression', 'unary_expression', 'parenthesized_expression', 'ternary_expression', 'postfix_expression']);

/**
 * `[ ... ]` and `[[ ... ]]` as the words the shell sees: the brackets, then every operand and
 * operator in order (`[[ -f x && -d y ]]` is `[[ -f x && -d y ]]`, seven words). The grammar nests
 * them as an expression tree; rules match flat words, so the tree is flattened back.
 */
export function testCommandWords(node: SyntaxNode): ShellWord[] {
  const words: ShellWord[] = [];
  const flatten = (part: SyntaxNode): void => {
    if (part.type === 'comment') return;
    if (!part.isNamed) words.push({ text: part.text, literal: true, glob: false });
    else if (EXPRESSION_TYPES.has(part.type)) for (const child of part.children) flatten(child!);
    else words.push(readWord(part));
  };
  for (const child of node.children) flatten(child!);
  return words;
}

/**
 * In `[ a > b ]` the shell sees a redirection to a file named b, not a comparison; the grammar reads
 * a comparison. So does `[[ a > b ]]` in sh (dash), which the shell tool uses and which has no `[[`.
 * Such a test command cannot be trusted as parsed.
 */
export function hidesRedirection(node: SyntaxNode): boolean {
  const search = (part: SyntaxNode): boolean =>
    part.type === 'redirected_statement' ||
    (EXPRESSION_TYPES.has(part.type) && part.children.some((child) => child !== null && (child.type === '>' || child.type === '<' || search(child))));
  return node.namedChildren.some((child) => child !== null && search(child));
}
