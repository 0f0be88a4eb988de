import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * These files are bundled into Temporal workflow code, which must stay deterministic and cannot load
 * Node built-ins or WebAssembly. They may import zod and each other, nothing else. Paths are from the
 * repository root, and imports are compared once resolved, so the check holds wherever the files live.
 */
const PURE_FILES = ['src/contract/shell-analysis.ts', 'src/core/approvals/shell/match-command.ts', 'src/core/approvals/shell/command-wrappers.ts'];

const repoRoot = path.join(__dirname, '../../../..');

/** What a file imports: package names as written, relative imports as repository paths of .ts files. */
function importsOf(file: string): string[] {
  const source = readFileSync(path.join(repoRoot, file), 'utf8');
  const specifiers = [...source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+['"]([^'"]+)['"]/gms)].map((match) => match[1]!);
  const dynamic = [...source.matchAll(/\b(?:require|import)\s*\(\s*['"]([^'"]+)['"]/g)].map((match) => match[1]!);
  return [...specifiers, ...dynamic]
    .map((specifier) => (specifier.startsWith('.') ? `${path.posix.join(path.posix.dirname(file), specifier)}.ts` : specifier))
    .sort();
}

describe('workflow-safe shell files', () => {
  it.each(PURE_FILES)('%s imports only zod and the other pure files', (file) => {
    const allowed = new Set(['zod', ...PURE_FILES]);
    expect(importsOf(file).filter((specifier) => !allowed.has(specifier))).toEqual([]);
  });

  it('finds the imports it checks', () => {
    expect(importsOf('src/contract/shell-analysis.ts')).toEqual(['zod']);
    expect(importsOf('src/core/approvals/shell/match-command.ts')).toEqual(['src/core/approvals/shell/command-wrappers.ts', 'src/contract/shell-analysis.ts'].sort());
  });
});
