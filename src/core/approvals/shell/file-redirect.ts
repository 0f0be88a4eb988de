import type { SyntaxNode } from './bash-parser';
import type { ShellWord } from '../../../contract/shell-analysis';
import { readWord } from './shell-word';

/** What one `file_redirect` node does. */
export interface FileRedirect {
  /** The file it writes, when it writes one. */
  writes?: ShellWord;
  /**
   * Words the grammar hangs on the redirection that the shell gives to the command instead:
   * in `echo a > f b` the shell runs `echo a b`, but the tree has `b` as a second destination.
   */
  strayWords: SyntaxNode[];
}

const WRITING = new Set(['>', '>>', '>|', '&>', '&>>']);

/**
 * Reads a redirection. `>&` writes a file unless its target is a descriptor number or `-`
 * (`2>&1` and `>&-` only duplicate or close descriptors); a computed target might be either, so it
 * counts as a write. `<&` and `<` only read.
 */
export function readFileRedirect(node: SyntaxNode): FileRedirect {
  const operator = node.children.find((child) => child !== null && !child.isNamed)?.type ?? '';
  const [destination, ...strayWords] = node.childrenForFieldName('destination').filter((child) => child !== null);
  if (destination === undefined) return { strayWords };
  const target = readWord(destination);
  if (WRITING.has(operator)) return { writes: target, strayWords };
  if (operator === '>&' && !(target.literal && /^(\d+|-)$/.test(target.text))) return { writes: target, strayWords };
  return { strayWords };
}
