// What docs/claims.md's checker reads from the test files: the titles given to it / test / describe,
// whether each may be skipped, and whether `npm test` runs the file at all.
import * as ts from 'typescript';
import vitestConfig from '../../vitest.config';

/** Property names on a callee chain that make a test or a group conditional. */
const CONDITIONAL = new Set(['skip', 'skipIf', 'runIf', 'todo']);

/**
 * The name a call is made through (`it` for it(...), it.each(...)(...), it.skipIf(...)(...), ...) and
 * whether the chain makes it conditional; a callee chosen by `cond ? describe : describe.skip` is too.
 */
function calleeOf(expression: ts.Expression): { root?: string; conditional: boolean } {
  if (ts.isIdentifier(expression)) return { root: expression.text, conditional: false };
  if (ts.isParenthesizedExpression(expression)) return calleeOf(expression.expression);
  if (ts.isConditionalExpression(expression)) return { root: calleeOf(expression.whenTrue).root ?? calleeOf(expression.whenFalse).root, conditional: true };
  if (ts.isPropertyAccessExpression(expression)) {
    const inner = calleeOf(expression.expression);
    return { root: inner.root, conditional: inner.conditional || CONDITIONAL.has(expression.name.text) };
  }
  if (ts.isCallExpression(expression)) return calleeOf(expression.expression);
  return { conditional: false };
}

/**
 * Every title given as a string literal to it / test / describe (and their .each, .skipIf, ... forms),
 * each with whether it may be skipped: by its own form, or a surrounding describe's.
 */
export function testsIn(fileName: string, source: string): Map<string, { skippable: boolean }> {
  const tests = new Map<string, { skippable: boolean }>();
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const visit = (node: ts.Node, inConditional: boolean): void => {
    let conditional = inConditional;
    if (ts.isCallExpression(node)) {
      const callee = calleeOf(node.expression);
      if (['it', 'test', 'describe'].includes(callee.root ?? '')) {
        conditional ||= callee.conditional;
        const first = node.arguments[0];
        if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
          tests.set(first.text, { skippable: conditional || tests.get(first.text)?.skippable === true });
        }
      }
    }
    ts.forEachChild(node, (child) => visit(child, conditional));
  };
  visit(file, false);
  return tests;
}

export const titlesIn = (fileName: string, source: string): Set<string> => new Set(testsIn(fileName, source).keys());

/** A glob of the vitest config as a RegExp: `**`, `*` and `{a,b}` are all its patterns use. */
function globToRegExp(glob: string): RegExp {
  let pattern = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i]!;
    if (glob.startsWith('**/', i)) {
      pattern += '(?:.*/)?';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      pattern += '.*';
      i += 1;
    } else if (c === '*') pattern += '[^/]*';
    else if (c === '{') pattern += '(?:';
    else if (c === '}') pattern += ')';
    else if (c === ',') pattern += '|';
    else pattern += c.replace(/[.+?^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`);
}

/** Whether `npm test` (vitest.config.ts) runs a test file. */
export function inNpmTest(file: string, config = vitestConfig.test!): boolean {
  const matches = (globs: readonly string[] | undefined) => (globs ?? []).some((glob) => globToRegExp(glob).test(file));
  return matches(config.include) && !matches(config.exclude);
}
