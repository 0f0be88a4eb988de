// The compatibility half of `npm run api:check`. The API reports (api/*.api.md) show every change to
// the public API, and api:update rewrites them, so a report alone cannot tell an addition from a break.
// This checks the API as it is now (api-extractor's rollups, .scratch/api/rollup/) against the last
// release's (api/baseline/, written by `npm run api:baseline` when a release is cut):
// - every name the baseline exports is still exported;
// - every function, class constructor and public method still accepts every argument list it
//   accepted (removing a parameter, even an optional one, or narrowing its type fails);
// The checks are TypeScript types in a generated file, compiled with the project's compiler.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

export interface CompatProblem {
  entry: string;
  message: string;
}

interface Exported {
  name: string;
  kind: 'function' | 'class' | 'value' | 'type';
  /** For a class: its public instance methods and static methods. */
  methods?: string[];
  statics?: string[];
  /** Whether a class can be constructed from outside (not abstract, constructor not private). */
  constructible?: boolean;
}

const hasModifier = (node: ts.Node, kind: ts.SyntaxKind) => (ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []).some((m) => m.kind === kind) : false);

/** The names a rollup exports, by kind. `export { a as b }` re-exports are read as values or types alike. */
export function exportsOf(source: string): Exported[] {
  const file = ts.createSourceFile('rollup.d.ts', source, ts.ScriptTarget.Latest, true);
  const declared = new Map<string, Exported>();
  const exported = new Map<string, string>(); // exported name -> local name
  for (const statement of file.statements) {
    const isExported = hasModifier(statement, ts.SyntaxKind.ExportKeyword);
    const record = (name: string, entry: Exported) => {
      declared.set(name, entry);
      if (isExported) exported.set(name, name);
    };
    if (ts.isFunctionDeclaration(statement) && statement.name) record(statement.name.text, { name: statement.name.text, kind: 'function' });
    else if (ts.isClassDeclaration(statement) && statement.name) {
      const members = statement.members.filter((m) => !hasModifier(m, ts.SyntaxKind.PrivateKeyword) && !hasModifier(m, ts.SyntaxKind.ProtectedKeyword));
      const methodNames = (isStatic: boolean) => [
        ...new Set(members.filter((m): m is ts.MethodDeclaration => ts.isMethodDeclaration(m) && hasModifier(m, ts.SyntaxKind.StaticKeyword) === isStatic && !!m.name && ts.isIdentifier(m.name)).map((m) => (m.name as ts.Identifier).text)),
      ];
      const privateConstructor = statement.members.some((m) => ts.isConstructorDeclaration(m) && (hasModifier(m, ts.SyntaxKind.PrivateKeyword) || hasModifier(m, ts.SyntaxKind.ProtectedKeyword)));
      record(statement.name.text, { name: statement.name.text, kind: 'class', methods: methodNames(false), statics: methodNames(true), constructible: !hasModifier(statement, ts.SyntaxKind.AbstractKeyword) && !privateConstructor });
    } else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) record(d.name.text, { name: d.name.text, kind: 'value' });
    } else if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) {
      record(statement.name.text, { name: statement.name.text, kind: ts.isEnumDeclaration(statement) ? 'value' : 'type' });
    } else if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause) && !statement.moduleSpecifier) {
      for (const spec of statement.exportClause.elements) exported.set(spec.name.text, (spec.propertyName ?? spec.name).text);
    }
  }
  return [...exported].map(([name, local]) => ({ ...(declared.get(local) ?? { name, kind: 'type' as const }), name }));
}

/** A declaration file without classes' private members (`private x;`, `#private;`), which d.ts files carry untyped. */
export function withoutPrivateMembers(source: string): string {
  return source
    .split('\n')
    .filter((line) => !/^\s+(private\s[^(]*;|#private;)\s*$/.test(line))
    .join('\n');
}

/** The generated checks for one entry: compile errors in this file are incompatibilities. */
export function checksFor(baseline: Exported[], oldModule: string, newModule: string): string {
  const lines = [
    `import type * as Old from '${oldModule}';`,
    `import type * as New from '${newModule}';`,
    '// Each argument list the last release accepted must still be accepted.',
    'type Accepts<Before, Now> = [Before] extends [Now] ? true : false;',
    'declare function accepts<T extends true>(): T;',
  ];
  const names = baseline.map((e) => e.name);
  lines.push(`import type { ${names.map((n) => `${n} as _${n}`).join(', ')} } from '${newModule}';`);
  for (const e of baseline) {
    const params = (of: string) => `Parameters<${of}>`;
    if (e.kind === 'function') lines.push(`accepts<Accepts<${params(`typeof Old.${e.name}`)}, ${params(`typeof New.${e.name}`)}>>(); // ${e.name}()`);
    if (e.kind === 'class') {
      if (e.constructible) lines.push(`accepts<Accepts<ConstructorParameters<typeof Old.${e.name}>, ConstructorParameters<typeof New.${e.name}>>>(); // new ${e.name}()`);
      for (const m of e.methods ?? []) lines.push(`accepts<Accepts<${params(`Old.${e.name}['${m}']`)}, ${params(`New.${e.name}['${m}']`)}>>(); // ${e.name}.prototype.${m}()`);
      for (const m of e.statics ?? []) lines.push(`accepts<Accepts<${params(`typeof Old.${e.name}.${m}`)}, ${params(`typeof New.${e.name}.${m}`)}>>(); // ${e.name}.${m}()`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Compiles the checks of every entry with a baseline; each error is one incompatibility, said plainly. */
export function checkCompatibility(root: string, baselineDir: string, currentDir: string): CompatProblem[] {
  const work = path.join(root, '.scratch', 'api', 'compat');
  mkdirSync(work, { recursive: true });
  const entries = readdirSync(baselineDir).filter((f) => f.endsWith('.d.ts'));
  const files = entries.map((file) => {
    const entry = file.replace(/\.d\.ts$/, '');
    const checks = path.join(work, `${entry}.check.ts`);
    const before = readFileSync(path.join(baselineDir, file), 'utf8');
    // Two copies of a class with private members are never assignable to each other in TypeScript;
    // callers cannot touch those members, so both sides are compared without them.
    for (const [side, text] of [['old', before], ['new', readFileSync(path.join(currentDir, file), 'utf8')]] as const) {
      mkdirSync(path.join(work, side), { recursive: true });
      writeFileSync(path.join(work, side, file), withoutPrivateMembers(text));
    }
    writeFileSync(checks, checksFor(exportsOf(before), `./old/${entry}`, `./new/${entry}`));
    return { entry, checks };
  });
  const program = ts.createProgram(
    files.map((f) => f.checks),
    { strict: true, noEmit: true, skipLibCheck: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: ['node'] },
  );
  const problems: CompatProblem[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file;
    if (!file) continue;
    const entry = files.find((f) => path.resolve(f.checks) === path.resolve(file.fileName))?.entry;
    if (!entry) continue;
    const line = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line;
    const text = file.text.split('\n')[line] ?? '';
    const what = text.includes('// ') ? text.split('// ')[1]! : ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ').replace(/'_(\w+)'/, "'$1'");
    problems.push({ entry, message: text.includes('// ') ? `${what} no longer accepts every call the last release accepted` : what });
  }
  return problems;
}

if (require.main === module) {
  const root = path.join(__dirname, '..');
  const problems = checkCompatibility(root, path.join(root, 'api', 'baseline'), path.join(root, '.scratch', 'api', 'rollup'));
  if (problems.length > 0) {
    console.error(`The public API breaks callers of the last release (api/baseline/):\n${problems.map((p) => `- ${p.entry}: ${p.message}`).join('\n')}`);
    console.error('Keep the old call shape (add, deprecate, never remove), or, for a new major version, run `npm run api:baseline` and say so in CHANGELOG.md.');
    process.exit(1);
  }
  console.log('API compatibility: every export and call shape of the last release still works.');
}
