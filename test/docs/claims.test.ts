// docs/claims.md lists every promise the README and docs make, with the test that proves it. This
// test keeps that list honest: every test it names must exist, as a file and as a title passed to
// it(...) / test(...) / describe(...) (or their .each / .skipIf forms) in that file. A renamed or
// deleted test fails here, naming the row, until the list is updated. A test that may not run (a
// skip/skipIf/runIf form, its own or a surrounding describe's) or that `npm test` does not include
// (the cluster config) must carry the matching mark in its row, so nobody reads it as always checked.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inNpmTest, testsIn, titlesIn } from './test-titles';

const repoRoot = path.resolve(__dirname, '../..');
const CLAIMS_FILE = path.join(repoRoot, 'docs/claims.md');

/** Rows the list holds today, less a margin: a parser that silently drops rows must not pass. */
const MIN_ROWS = 320;
/** Rows that name a test, less a margin. */
const MIN_ROWS_WITH_TESTS = 280;

const NONE_YET = 'none yet';

/** The marks a test reference may carry after its title: ` [can skip]`, ` [outside npm test]`. */
const MARKS = ['can skip', 'outside npm test'] as const;
type Mark = (typeof MARKS)[number];

interface TestRef {
  file: string;
  title: string;
  marks: Mark[];
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

const TEST_REF = /^`(test\/[^`]+\.test\.ts)` › (.+?)((?: \[[^\]]+\])*)$/;

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
      const marks = [...match[3]!.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]!);
      const unknown = marks.find((mark) => !(MARKS as readonly string[]).includes(mark));
      if (unknown) throw new Error(`${at}: unknown mark [${unknown}]; the marks are ${MARKS.map((m) => `[${m}]`).join(', ')}`);
      return { file: match[1]!, title: match[2]!.trim(), marks: marks as Mark[] };
    });
    rows.push({ line, promise, where, tests });
  });
  return rows;
}

/** One message per test reference whose marks differ from what its file shows. */
function wrongMarks(rows: ClaimRow[], read: (file: string) => string | undefined, runs = (file: string) => inNpmTest(file)): string[] {
  const problems: string[] = [];
  for (const row of rows) {
    if (row.tests === NONE_YET) continue;
    for (const { file, title, marks } of row.tests) {
      const source = read(file);
      const test = source === undefined ? undefined : testsIn(file, source).get(title);
      if (!test) continue; // missingTests reports it.
      const at = `docs/claims.md line ${row.line} ("${row.promise}"), ${file} › ${title}`;
      const expected: Record<Mark, boolean> = { 'can skip': test.skippable, 'outside npm test': !runs(file) };
      for (const mark of MARKS) {
        if (expected[mark] && !marks.includes(mark)) problems.push(`${at}: ${mark === 'can skip' ? 'may be skipped' : 'is not run by npm test'}; mark it [${mark}]`);
        if (!expected[mark] && marks.includes(mark)) problems.push(`${at}: marked [${mark}], but it is not; remove the mark`);
      }
    }
  }
  return problems;
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

  it('marks every test that can be skipped or that npm test does not run, and no other', () => {
    expect(wrongMarks(rows, readFromRepo)).toEqual([]);
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

  it('knows which tests can be skipped: their own skip form, a surrounding describe\'s, a describe chosen by a condition', () => {
    const source = [
      "it('always', () => {});",
      "it.skipIf(x)('own skipIf', () => {});",
      "describe.runIf(root).each(['a'])('group %s', () => { it('inside runIf', () => {}); });",
      "(linux ? describe : describe.skip)('chosen', () => { it('inside chosen', () => {}); });",
      "describe('plain group', () => { it('inside plain', () => {}); });",
    ].join('\n');
    const skippable = Object.fromEntries([...testsIn('x.test.ts', source)].map(([title, t]) => [title, t.skippable]));
    expect(skippable).toEqual({
      always: false,
      'own skipIf': true,
      'group %s': true,
      'inside runIf': true,
      chosen: true,
      'inside chosen': true,
      'plain group': false,
      'inside plain': false,
    });
  });

  it('knows which files npm test runs, from vitest.config.ts', () => {
    expect(inNpmTest('test/docs/claims.test.ts')).toBe(true);
    expect(inNpmTest('test/cluster/host-failure.cluster.test.ts')).toBe(false);
    expect(inNpmTest('bench/load.ts')).toBe(false);
  });

  it('reports a missing mark, a mark on a test that always runs, and an unknown mark, naming the row', () => {
    const source = "it('always', () => {});\nit.skipIf(x)('sometimes', () => {});";
    const read = (file: string) => (file.startsWith('test/x') || file.startsWith('test/cluster/') ? source : undefined);
    const rows = parseClaims(
      table(
        '| Unmarked | README.md#quick-start | `test/x.test.ts` › sometimes |',
        '| Marked | README.md#quick-start | `test/x.test.ts` › sometimes [can skip] |',
        '| Stale | README.md#quick-start | `test/x.test.ts` › always [can skip] |',
        '| Cluster | README.md#quick-start | `test/cluster/c.cluster.test.ts` › always<br>`test/cluster/c.cluster.test.ts` › sometimes [can skip] [outside npm test] |',
      ),
    );
    expect(rows[1]!.tests).toEqual([{ file: 'test/x.test.ts', title: 'sometimes', marks: ['can skip'] }]);
    expect(wrongMarks(rows, read)).toEqual([
      'docs/claims.md line 3 ("Unmarked"), test/x.test.ts › sometimes: may be skipped; mark it [can skip]',
      'docs/claims.md line 5 ("Stale"), test/x.test.ts › always: marked [can skip], but it is not; remove the mark',
      'docs/claims.md line 6 ("Cluster"), test/cluster/c.cluster.test.ts › always: is not run by npm test; mark it [outside npm test]',
    ]);
    expect(() => parseClaims(table('| A promise | README.md#quick-start | `test/x.test.ts` › always [flaky] |'))).toThrow(/line 3: unknown mark \[flaky\]/);
  });

  it('keeps escaped pipes inside a cell and reads every test of a <br> list', () => {
    const [row] = parseClaims(table('| `a \\|\\| b` runs both | docs/guides/approvals.md#rule-forms | `test/a.test.ts` › one<br>`test/b.test.ts` › two |'));
    expect(row).toMatchObject({ promise: '`a || b` runs both', tests: [{ file: 'test/a.test.ts', title: 'one' }, { file: 'test/b.test.ts', title: 'two' }] });
  });
});
