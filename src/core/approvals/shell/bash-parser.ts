import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { Node, Parser, Tree } from 'web-tree-sitter';

export type { Node as SyntaxNode };

/** A line that takes longer than this to parse is treated as not understood rather than waited on. */
const PARSE_BUDGET_MS = 2_000;

let loading: Promise<Parser> | undefined;

/**
 * The Bash parser, loaded on first use and shared by the whole process: compiling the WebAssembly
 * runtime and grammar takes tens of milliseconds, which is fine once and wasteful per command. A
 * failed load is not cached, so a later call can try again.
 */
export function loadBashParser(): Promise<Parser> {
  loading ??= (async () => {
    // Required here, not imported at the top, so that a worker that never reads a shell command never loads it.
    const { Parser, Language } = createRequire(__filename)('web-tree-sitter') as typeof import('web-tree-sitter');
    await Parser.init();
    const language = await Language.load(bashGrammar());
    return new Parser().setLanguage(language);
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * The Bash grammar's WebAssembly: beside this file in the built package (scripts/build.js copies it
 * there, so the package need not depend on tree-sitter-bash, 20 MB of C sources and native builds
 * around this 1.3 MB file), else tree-sitter-bash's own in a checkout.
 */
function bashGrammar(): string {
  const beside = path.join(__dirname, 'tree-sitter-bash.wasm');
  return existsSync(beside) ? beside : require.resolve('tree-sitter-bash/tree-sitter-bash.wasm');
}

/**
 * Parses one script and hands its tree to `use`, freeing the tree afterwards (it lives in WebAssembly
 * memory, which the garbage collector does not see). Returns undefined when parsing ran out of time.
 */
export function withSyntaxTree<T>(parser: Parser, source: string, use: (tree: Tree) => T): T | undefined {
  const deadline = Date.now() + PARSE_BUDGET_MS;
  const tree = parser.parse(source, null, { progressCallback: () => Date.now() > deadline });
  if (tree === null) {
    // A cancelled parse would otherwise resume, half done, on the next call.
    parser.reset();
    return undefined;
  }
  try {
    return use(tree);
  } finally {
    tree.delete();
  }
}

/** A node's named children without comments; the bindings type children as nullable, which they never are here. */
export function namedChildrenOf(node: Node): Node[] {
  return node.namedChildren.filter((child): child is Node => child !== null && child.type !== 'comment');
}
