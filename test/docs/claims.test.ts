// docs/claims.md lists every promise the README and docs make, with the test that proves it. This
// test keeps that list honest: every test it names must exist, as a file and as a title passed to
// it(...) / test(...) / describe(...) (or their .each / .skipIf forms) in that file. A renamed or
// deleted test fails here, naming the row, until the list is updated.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(__dirname, '../..');
const CLAIMS_FILE = path.join(repoRoot, 'docs/claims.md');

/** Rows the list holds today, less a margin: a parser that silently drops rows must not pass. */
const MIN_ROWS = 320;
/** Rows that name a test, less a margin. */
const MIN_ROWS_WITH_TESTS = 280;

const NONE_YET = 'none yet';

interface TestRef {
  file: string;
  title: string;
}

interface ClaimRow {
  /** 1-based line in the Markdown file. */
  line: number;
  promise: string;
  where: string;
  /** The tests that prove the promise, or `none yet`. */
  tests: TestRef[] | typeof NONE_YET;
}

/** Splits a Markdown table row on the pipes that are not escaped as `\|`. */
function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

const TEST_REF = /^`(test\/[^`]+\.test\.ts)` › (.+)$/;

/**
 * The rows of every table whose header is `| Promise | Where | Test |`. Throws, naming the line, for a
 * row that does not have those three cells or whose test column is neither `none yet` nor one or more
 * `` `test/….test.ts` › title `` separated by `<br>`.
 */
function parseClaims(markdown: string, source = 'docs/claims.md'): ClaimRow[] {
  const rows: ClaimRow[] = [];
  const lines = markdown.split('\n');
  let inTable = false;
  lines.forEach((text, index) => {
    const line = index + 1;
    if (!text.trim().startsWith('|')) {
      inTable = false;
      return;
    }
    const row = cells(text);
    if (row.length === 3 && row[0] === 'Promise' && row[1] === 'Where' && row[2] === 'Test') {
      inTable = true;
      return;
    }
    if (!inTable || row.every((cell) => /^:?-+:?$/.test(cell))) return;
    const at = `${source} line ${line}`;
    if (row.length !== 3) throw new Error(`${at}: expected 3 cells (promise | where | test), found ${row.length}: ${text}`);
    const [promise, where, test] = row as [string, string, string];
    if (!promise) throw new Error(`${at}: the promise is empty`);
    if (!/^(README\.md|docs\/[\w/-]+\.md)#[\w-]+$/.test(where)) throw new Error(`${at}: "where" must be file#section, found "${where}"`);
    if (test === NONE_YET) {
      rows.push({ line, promise, where, tests: NONE_YET });
      return;
    }
    const tests = test.split('<br>').map((ref) => {
      const match = TEST_REF.exec(ref.trim());
      if (!match) throw new Error(`${at}: the test column must be "${NONE_YET}" or \`test/….test.ts\` › title, found "${ref.trim()}"`);
      return { file: match[1]!, title: match[2]!.trim() };
    });
    rows.push({ line, promise, where, tests });
  });
  return rows;
}

/** The name a call is made through: `it` for it(...), it.each(...)(...), it.skipIf(...)(...), ... */
function calleeRoot(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return calleeRoot(expression.expression);
  if (ts.isCallExpression(expression)) return calleeRoot(expression.expression);
  return undefined;
}

/** Every title given as a string literal to it / test / describe (and their .each, .skipIf, ... forms). */
function titlesIn(fileName: string, source: string): Set<string> {
  const titles = new Set<string>();
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ['it', 'test', 'describe'].includes(calleeRoot(node.expression) ?? '')) {
      const first = node.arguments[0];
      if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) titles.add(first.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return titles;
}

/** One message per test a row names that does not exist; `read` returns a file's source, or undefined. */
function missingTests(rows: ClaimRow[], read: (file: string) => string | undefined): string[] {
  const cache = new Map<string, Set<string> | undefined>();
  const titlesOf = (file: string) => {
    if (!cache.has(file)) {
      const source = read(file);
      cache.set(file, source === undefined ? undefined : titlesIn(file, source));
    }
    return cache.get(file);
  };
  const problems: string[] = [];
  for (const row of rows) {
    if (row.tests === NONE_YET) continue;
    for (const { file, title } of row.tests) {
      const titles = titlesOf(file);
      const at = `docs/claims.md line ${row.line} ("${row.promise}")`;
      if (!titles) problems.push(`${at}: no such test file ${file}`);
      else if (!titles.has(title)) problems.push(`${at}: ${file} has no test titled "${title}"`);
    }
  }
  return problems;
}

const readFromRepo = (file: string) => {
  const full = path.join(repoRoot, file);
  return existsSync(full) ? readFileSync(full, 'utf8') : undefined;
};

describe('docs/claims.md', () => {
  const rows = parseClaims(readFileSync(CLAIMS_FILE, 'utf8'));

  it('lists the promises in full: the tables did not lose rows to a parsing slip', () => {
    expect(rows.length).toBeGreaterThanOrEqual(MIN_ROWS);
    expect(rows.filter((row) => row.tests !== NONE_YET).length).toBeGreaterThanOrEqual(MIN_ROWS_WITH_TESTS);
  });

  it('names only tests that exist', () => {
    expect(missingTests(rows, readFromRepo)).toEqual([]);
  });

  it('repeats every "none yet" promise in the list of promises without a test', () => {
    const markdown = readFileSync(CLAIMS_FILE, 'utf8');
    const section = markdown.slice(markdown.indexOf('## Promises without a test'));
    // The short list may word a promise more briefly; it must hold one entry per untested row, by place.
    const listed = section
      .split('\n')
      .filter((line) => line.trim().startsWith('|'))
      .map((line) => cells(line))
      .filter((row) => row.length === 2 && row[0] !== 'Promise' && !/^-+$/.test(row[1]!))
      .map(([, where]) => where!);
    const untested = rows.filter((row) => row.tests === NONE_YET).map((row) => row.where);
    expect(listed.sort()).toEqual(untested.sort());
  });
});

describe('the claims checker', () => {
  const table = (...rows: string[]) => ['| Promise | Where | Test |', '| --- | --- | --- |', ...rows].join('\n');

  it('finds a title in any of the quote styles, escaped quotes and .each / .skipIf forms included', () => {
    const source = [
      "it('plain title', () => {});",
      'it("a person\'s title", () => {});',
      "it('it\\'s escaped', () => {});",
      'test(`template title`, () => {});',
      "it.each([1, 2])('each %s title', () => {});",
      "describe.each(['a'])('group %s', () => {});",
      "it.skipIf(process.env.X !== 'y')(\n  'skipped title',\n  () => {},\n);",
    ].join('\n');
    expect([...titlesIn('x.test.ts', source)].sort()).toEqual(
      ['a person\'s title', 'each %s title', 'group %s', "it's escaped", 'plain title', 'skipped title', 'template title'].sort(),
    );
  });

  it('does not take a title from a string that is not the first argument of it / test / describe', () => {
    const source = "const t = 'floating title';\nexpect('expected title').toBe('x');\nit(name, () => {});";
    expect(titlesIn('x.test.ts', source).size).toBe(0);
  });

  it('reports a made-up test title and a made-up test file, naming the row', () => {
    const rows = parseClaims(
      table(
        '| A real promise | README.md#quick-start | `test/docs/claims.test.ts` › names only tests that exist |',
        '| A promise with a made-up test | README.md#quick-start | `test/docs/claims.test.ts` › proves that pigs fly |',
        '| A promise in a made-up file | README.md#quick-start | `test/nowhere/made-up.test.ts` › anything |',
        '| A promise nobody tests | README.md#quick-start | none yet |',
      ),
    );
    expect(rows).toHaveLength(4);
    expect(missingTests(rows, readFromRepo)).toEqual([
      'docs/claims.md line 4 ("A promise with a made-up test"): test/docs/claims.test.ts has no test titled "proves that pigs fly"',
      'docs/claims.md line 5 ("A promise in a made-up file"): no such test file test/nowhere/made-up.test.ts',
    ]);
  });

  it('rejects a row whose test column is not "none yet" or a test reference, naming the line', () => {
    expect(() => parseClaims(table('| A promise | README.md#quick-start | tested somewhere |'))).toThrow(/line 3: the test column must be/);
    expect(() => parseClaims(table('| A promise | README.md#quick-start | test/x.test.ts › no backticks |'))).toThrow(/line 3: the test column must be/);
    expect(() => parseClaims(table('| A promise | README.md#quick-start |'))).toThrow(/line 3: expected 3 cells/);
    expect(() => parseClaims(table('| A promise | somewhere | none yet |'))).toThrow(/line 3: "where" must be file#section/);
  });

  it('keeps escaped pipes inside a cell and reads every test of a <br> list', () => {
    const [row] = parseClaims(table('| `a \\|\\| b` runs both | docs/approvals.md#rule-forms | `test/a.test.ts` › one<br>`test/b.test.ts` › two |'));
    expect(row).toMatchObject({ promise: '`a || b` runs both', tests: [{ file: 'test/a.test.ts', title: 'one' }, { file: 'test/b.test.ts', title: 'two' }] });
  });
});
