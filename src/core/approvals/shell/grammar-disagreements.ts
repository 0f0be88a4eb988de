import type { SyntaxNode } from './bash-parser';

/**
 * Places where tree-sitter-bash reads a line differently from the shell, each able to hide a command
 * or a word from the analysis. They were found by running generated lines through `bash -x` and
 * `dash -x` (the shell tool runs `sh`, which is dash on Debian) and comparing what ran with what the
 * analysis listed. Each check looks at one node and returns why the tree cannot be trusted there.
 */
type DisagreementCheck = (node: SyntaxNode, source: string) => string | undefined;

/** Characters that end a word, so a keyword or word may touch them. */
const WORD_END = /[\s;&|()<>]/;

const CHECKS: readonly DisagreementCheck[] = [
  // After `ls<newline>\rm` the shell runs `rm`, and in `< } } x` it runs `}`; the grammar reads
  // `<newline>\rm` and `} }` as single words. A bare word never holds unescaped white space.
  (node) =>
    node.type === 'word' && /(^|[^\\])(\\\\)*\s/.test(node.text)
      ? 'a word holds a space or line break; do not start a line with a backslash, or join the commands with ;'
      : undefined,
  // `}\rm` and `cat<(ls)` are one word to the shell; the grammar splits them into two arguments.
  (node) => (WORD_LISTS.has(node.type) && hasTouchingWords(node) ? 'two words touch without a space between them; write them apart or quote them as one' : undefined),
  // sh (dash) reads `a &> f b` as `a &` and `> f b`, which runs b as a new command.
  (node) =>
    node.type === 'file_redirect' && /^&>>?$/.test(operatorOf(node)) && node.childrenForFieldName('destination').length > 1
      ? 'words after an &> redirection; in sh they form a new command, so put them before the redirection'
      : undefined,
  // `{}` and `{ls;}` are words to the shell but a group to the grammar.
  (node) =>
    node.type === 'compound_statement' && node.text.startsWith('{') && (!/^\{\s/.test(node.text) || node.namedChildCount === 0)
      ? 'a { } group needs a space after { and at least one command'
      : undefined,
  // In `ls -c2>&1` the shell passes `-c2` to ls, and sh (dash) reads only one digit as a descriptor
  // (`ls 10>f` passes `10`); the grammar takes both for descriptor numbers.
  (node) =>
    node.type === 'file_descriptor' && !/^\d$/.test(node.text) ? 'a word is glued to a redirection, or a descriptor number has more than one digit' : undefined,
  // `>& -x` and `<& -x` are not the plain "close" of `>&-`; the shell reads them its own way.
  (node) =>
    node.type === 'file_redirect' && /^\d*[<>]&\s*-./.test(node.text) ? 'a descriptor duplication (>&, <&) to a word starting with -' : undefined,
  // In `local$(a)x` the shell sees one word; the grammar sees the keyword `local` and an argument.
  (node, source) =>
    !node.isNamed && /^[a-z]+$/.test(node.type) && node.text === node.type && !WORD_END.test(source[node.endIndex] ?? ' ')
      ? `the keyword "${node.type}" is glued to what follows; put a space after it`
      : undefined,
  // `1x=1 ls` runs a command named `1x=1`; the grammar reads an assignment.
  (node) =>
    node.type === 'variable_assignment' && !/^[A-Za-z_][A-Za-z0-9_]*(\[|\+?=)/.test(node.text) ? 'an assignment to a name that is not a variable name' : undefined,
  // `!}rm` is a command named `!}rm` to the shell; the grammar negates a command named `}rm`.
  (node) => (node.type === 'negated_command' && /^!\S/.test(node.text) ? '! is glued to the command after it; put a space after !' : undefined),
  // `! ! rm` negates twice and runs rm; the grammar runs a command named `!` with rm as its argument.
  (node) => (node.type === 'command_name' && node.text === '!' ? 'a repeated ! before a command' : undefined),
  // In `: {PATH}>/dev/null` bash opens a descriptor and stores its number in PATH (so `ls` next runs
  // from the folder `10`); the grammar reads `{PATH}` as an argument and the redirection apart.
  (node, source) =>
    /^(word|concatenation)$/.test(node.type) && /^\{[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\}$/.test(node.text) && /[<>]/.test(source[node.endIndex] ?? '')
      ? '{NAME} glued to a redirection makes bash store a descriptor number in the variable NAME; put a space after }'
      : undefined,
];

/** Nodes whose word children the shell separates only by white space. */
const WORD_LISTS = new Set(['command', 'declaration_command', 'unset_command', 'file_redirect', 'for_statement']);

function hasTouchingWords(node: SyntaxNode): boolean {
  let previous: SyntaxNode | undefined;
  for (let index = 0; index < node.childCount; index += 1) {
    const child = node.child(index)!;
    const field = node.fieldNameForChild(index);
    const isWord = field === 'name' || field === 'argument' || field === 'destination' || field === 'value' || child.type === 'variable_assignment';
    if (isWord && previous !== undefined && previous.endIndex === child.startIndex) return true;
    previous = isWord ? child : undefined;
  }
  return false;
}

function operatorOf(node: SyntaxNode): string {
  return node.children.find((child) => child !== null && !child.isNamed)?.type ?? '';
}

/** Every disagreement in the tree, each with the text it was found in. */
export function findGrammarDisagreements(root: SyntaxNode, source: string): Array<{ reason: string; near: string }> {
  const found: Array<{ reason: string; near: string }> = [];
  const visit = (node: SyntaxNode): void => {
    for (const check of CHECKS) {
      const reason = check(node, source);
      if (reason !== undefined) found.push({ reason, near: node.parent?.text ?? node.text });
    }
    for (const child of node.children) if (child !== null) visit(child);
  };
  visit(root);
  return found;
}
