import type { SyntaxNode } from './bash-parser';
import { findGrammarDisagreements } from './grammar-disagreements';

/** Where a backslash-newline is text, not a line continuation the shell removes. */
const QUOTED_TEXT = new Set(['raw_string', 'heredoc_body', 'comment', 'string', 'ansi_c_string']);

/**
 * Reasons a script's tree cannot be trusted as the shell's own reading of it: syntax errors, text the
 * grammar silently dropped, and the known places where grammar and shell disagree.
 */
export function describeSyntaxProblems(root: SyntaxNode, source: string): string[] {
  const problems: string[] = [];
  if (root.hasError) {
    const broken = firstBrokenNode(root);
    const near = broken === undefined ? '' : broken.isMissing ? ` (a "${broken.type}" is missing)` : ` near "${excerpt(broken.text || source)}"`;
    problems.push(`the command line is not valid shell syntax${near}; fix the syntax`);
  }
  const dropped = firstUnreadCharacter(root, source);
  if (dropped !== undefined) {
    problems.push(`the parser skipped part of the line (near "${excerpt(source.slice(Math.max(0, dropped - 10), dropped + 10))}"), so it cannot be checked; write it without escaped spaces or tabs between words`);
  }
  for (const { reason, near } of findGrammarDisagreements(root, source)) problems.push(`${reason} (in "${excerpt(near)}")`);
  for (let index = source.indexOf('\\\n'); index >= 0; index = source.indexOf('\\\n', index + 2)) {
    if (misreadContinuation(source, index) && !insideQuotedText(root, index)) {
      problems.push(`a backslash-newline here is read differently by the parser and the shell (in "${excerpt(source.slice(Math.max(0, index - 20), index + 20))}"); write the command on one line`);
      break;
    }
  }
  return problems;
}

function firstBrokenNode(node: SyntaxNode): SyntaxNode | undefined {
  if (node.isError || node.isMissing) return node;
  for (const child of node.children) {
    if (child === null || !child.hasError) continue;
    const found = firstBrokenNode(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Every character but whitespace and line continuations belongs to some leaf of the tree; the
 * grammar drops a few (an escaped space between words, `\ `), and a dropped character may be a word.
 */
function firstUnreadCharacter(root: SyntaxNode, source: string): number | undefined {
  const read = new Uint8Array(source.length);
  const mark = (node: SyntaxNode): void => {
    // A here-document body is data read as a whole; its children only mark the expansions in it.
    if (node.childCount === 0 || node.type === 'heredoc_body') read.fill(1, node.startIndex, node.endIndex);
    for (const child of node.children) if (child !== null) mark(child);
  };
  mark(root);
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index]!;
    if (read[index] === 1 || /\s/.test(char) || (char === '\\' && source[index + 1] === '\n')) continue;
    return index;
  }
  return undefined;
}

/**
 * A real continuation (an odd run of backslashes) that the grammar gets wrong: one inside a word
 * (the shell joins `r\<newline>m` into `rm`, the grammar sees `r` and `m`), or one at the start of a
 * line (the shell has already ended the command above; the grammar continues it).
 */
function misreadContinuation(source: string, index: number): boolean {
  let backslashes = 0;
  while (source[index - backslashes] === '\\') backslashes += 1;
  if (backslashes % 2 === 0) return false;
  const before = source.slice(0, index - backslashes + 1).replace(/[ \t]+$/, '');
  const after = source[index + 2];
  const insideWord = /\S$/.test(source.slice(0, index - backslashes + 1)) && after !== undefined && /\S/.test(after);
  return insideWord || before.endsWith('\n');
}

function insideQuotedText(root: SyntaxNode, index: number): boolean {
  for (let node: SyntaxNode | null = root.descendantForIndex(index); node !== null; node = node.parent) {
    if (QUOTED_TEXT.has(node.type)) return true;
  }
  return false;
}

export function excerpt(source: string): string {
  const line = source.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}
