// The source files the workflow bundle loads, found by walking the imports from src/workflows/index.ts
// the way the bundler keeps them: type-only imports, and imports whose bindings are used only as
// types, leave no code in the bundle and are not followed. eslint.config.mjs holds these files to
// the determinism rule; test/workflows/lint-rule.test.ts checks the walk against a real bundle.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const ENTRY = 'src/workflows/index.ts';

/** Local names the file uses as values (type positions, interfaces and type aliases skipped). */
function valueNames(source) {
  const names = new Set();
  const visit = (node) => {
    if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isImportDeclaration(node)) return;
    if (ts.isIdentifier(node)) names.add(node.text);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return names;
}

/** The relative specifiers of `source` that bring code into the bundle. */
function codeImports(source) {
  const used = valueNames(source);
  const specifiers = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const bindings = [];
      if (clause?.name) bindings.push(clause.name.text);
      const named = clause?.namedBindings;
      if (named && ts.isNamespaceImport(named)) bindings.push(named.name.text);
      if (named && ts.isNamedImports(named)) bindings.push(...named.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text));
      // A bare `import './x'` runs the module; otherwise it is kept only for a binding used as a value.
      if (clause && !bindings.some((name) => used.has(name))) continue;
      specifiers.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      if (statement.isTypeOnly) continue;
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly)) continue;
      specifiers.push(statement.moduleSpecifier.text);
    }
  }
  return specifiers.filter((s) => s.startsWith('.'));
}

function resolveFrom(file, specifier, root) {
  const base = path.resolve(root, path.dirname(file), specifier);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return path.relative(root, candidate).split(path.sep).join('/');
  }
  throw new Error(`${file}: cannot resolve ${specifier}`);
}

/** Every source file (relative to `root`, with `/`) the workflow bundle loads, sorted. */
export function workflowBundleFiles(root = process.cwd()) {
  const seen = new Set();
  const queue = [ENTRY];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const source = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
    for (const specifier of codeImports(source)) queue.push(resolveFrom(file, specifier, root));
  }
  return [...seen].sort();
}
