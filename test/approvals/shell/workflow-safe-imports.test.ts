import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * These files are bundled into Temporal workflow code, which must stay deterministic and cannot load
 * Node built-ins or WebAssembly. They may import zod and each other, nothing else.
 */
const PURE_FILES = ['shell-analysis.ts', 'match-command.ts', 'command-wrappers.ts'];
const ALLOWED = new Set(['zod', ...PURE_FILES.map((file) => `./${file.replace(/\.ts$/, '')}`)]);

const shellFolder = path.join(__dirname, '../../../src/approvals/shell');

function importsOf(file: string): string[] {
  const source = readFileSync(path.join(shellFolder, file), 'utf8');
  const specifiers = [...source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+['"]([^'"]+)['"]/gms)].map((match) => match[1]!);
  const dynamic = [...source.matchAll(/\b(?:require|import)\s*\(\s*['"]([^'"]+)['"]/g)].map((match) => match[1]!);
  return [...specifiers, ...dynamic];
}

describe('workflow-safe shell files', () => {
  it.each(PURE_FILES)('%s imports only zod and the other pure files', (file) => {
    const imports = importsOf(file);
    expect(imports.filter((specifier) => !ALLOWED.has(specifier))).toEqual([]);
  });

  it('finds the imports it checks', () => {
    expect(importsOf('shell-analysis.ts')).toEqual(['zod']);
    expect(importsOf('match-command.ts')).toEqual(['./command-wrappers', './shell-analysis']);
  });
});
