// The README and the docs show TypeScript that users copy into their own projects. This test takes
// every ```ts block that imports the package ('durable-agent', 'durable-agent/client',
// 'durable-agent/testing'), writes each to a file of its own, and typechecks them all in one program
// with the TypeScript compiler API, the package names mapped to src/ (compilerOptions.paths): a
// snippet calling an export that is gone, or passing an option that changed shape, fails here in a
// few seconds, without the packed-tarball test's npm install.
//
// A block that is a fragment on purpose (it uses names it does not declare, or shows a shape, not a
// program) opts out with an HTML comment on the line right above its fence, which readers do not see:
//
//   <!-- snippet: fragment -->
//   ```ts
//
// Snippets are compiled as an ESM user's project compiles them (`.mts`, module NodeNext, strict), so
// top-level await works as it does for them.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(__dirname, '../..');
export const FRAGMENT_MARKER = '<!-- snippet: fragment -->';
const PACKAGE_IMPORT = /from '(durable-agent(?:\/client|\/testing)?)'/;
/** Blocks that import the package today, less a margin: an extractor that silently finds none must not pass. */
const MIN_SNIPPETS = 10;

interface Snippet {
  /** Where it is, for the failure message: `docs/library.md:26`. */
  where: string;
  code: string;
}

/** The README and every Markdown file under docs/. */
function docFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return walk(full);
      return entry.name.endsWith('.md') ? [full] : [];
    });
  return [path.join(REPO, 'README.md'), ...walk(path.join(REPO, 'docs'))];
}

/** The ```ts blocks of one Markdown text that import the package and are not marked as fragments. */
export function packageSnippets(markdown: string, file: string): Snippet[] {
  const snippets: Snippet[] = [];
  for (const match of markdown.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```/gm)) {
    const before = markdown.slice(0, match.index);
    const previousLine = before.trimEnd().split('\n').at(-1)?.trim();
    if (previousLine === FRAGMENT_MARKER || !PACKAGE_IMPORT.test(match[1]!)) continue;
    snippets.push({ where: `${file}:${before.split('\n').length}`, code: match[1]! });
  }
  return snippets;
}

const compilerOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2022.d.ts'],
  types: ['node'],
  esModuleInterop: true,
  baseUrl: REPO,
  paths: {
    'durable-agent': [path.join(REPO, 'src/index.ts')],
    'durable-agent/client': [path.join(REPO, 'src/client/index.ts')],
    'durable-agent/testing': [path.join(REPO, 'src/testing/index.ts')],
  },
};

/** A snippet that must not compile: it proves a broken snippet is reported, not passed over. */
const CANARY = "import { defineTool, noSuchExport } from 'durable-agent';\nnoSuchExport(defineTool);\n";

describe('the docs\' TypeScript snippets', () => {
  const folder = path.join(REPO, '.scratch', `doc-snippets-${process.pid}`);
  const snippets = docFiles().flatMap((file) => packageSnippets(readFileSync(file, 'utf8'), path.relative(REPO, file)));
  const whereOf = new Map<string, string>();
  let errorsByFile: Map<string, string[]>;
  let canaryFile: string;

  beforeAll(() => {
    // Inside the repository, so `zod` and the Temporal SDK resolve from its node_modules as a user's do.
    mkdirSync(folder, { recursive: true });
    snippets.forEach((snippet, i) => {
      const file = path.join(folder, `snippet-${i + 1}.mts`);
      writeFileSync(file, snippet.code);
      whereOf.set(file, snippet.where);
    });
    canaryFile = path.join(folder, 'canary.mts');
    writeFileSync(canaryFile, CANARY);
    const program = ts.createProgram([...whereOf.keys(), canaryFile], compilerOptions);
    errorsByFile = new Map();
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const file = diagnostic.file?.fileName ?? '(options)';
      if (diagnostic.file && !file.startsWith(folder)) continue; // src/ itself is checked by `npm run typecheck`
      const line = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
      const text = `line ${line} of the block: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      errorsByFile.set(file, [...(errorsByFile.get(file) ?? []), text]);
    }
  }, 120_000);

  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('finds the blocks that import durable-agent, durable-agent/client or durable-agent/testing', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(MIN_SNIPPETS);
    expect(snippets.some((snippet) => snippet.where.startsWith('README.md'))).toBe(true);
  });

  it('typechecks every one of them against src/ with tsc --strict', () => {
    const problems = [...errorsByFile].filter(([file]) => file !== canaryFile).map(([file, errors]) => `${whereOf.get(file) ?? file}:\n  ${errors.join('\n  ')}`);
    expect(problems, `Fix these snippets, or mark a deliberate fragment with ${FRAGMENT_MARKER} above its fence`).toEqual([]);
  });

  it('reports a snippet that calls an export the package does not have', () => {
    expect(errorsByFile.get(canaryFile)?.join('\n')).toMatch(/TS2305 Module '"durable-agent"' has no exported member 'noSuchExport'/);
  });
});

describe('packageSnippets', () => {
  it('skips a block marked as a fragment and one that does not import the package', () => {
    const markdown = [
      FRAGMENT_MARKER,
      '```ts',
      "import { x } from 'durable-agent';",
      '```',
      '```ts',
      'const shape = { a: 1 };',
      '```',
      '```ts',
      "import { AgentClient } from 'durable-agent/client';",
      '```',
    ].join('\n');
    expect(packageSnippets(markdown, 'x.md')).toEqual([{ where: 'x.md:8', code: "import { AgentClient } from 'durable-agent/client';\n" }]);
  });
});
