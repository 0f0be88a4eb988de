// docs/architecture.md draws the layers of src/ and the arrows between them. This test reads the
// imports of every source file and holds them against that picture: an import between two layers the
// picture does not draw, an arrow the code no longer has, an import from a lower layer up to a higher
// one, or a circle between files fails here, so the picture cannot drift from the code.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(__dirname, '../..');
const SRC = path.join(repoRoot, 'src');

/** The layers from the bottom up, as the picture's node ids name them, and the source each holds. */
const LAYERS: { node: string; holds: (file: string) => boolean }[] = [
  { node: 'contract', holds: (f) => f.startsWith('contract/') },
  { node: 'core', holds: (f) => f.startsWith('core/') },
  { node: 'runtime', holds: (f) => f.startsWith('runtime/') },
  { node: 'workflows', holds: (f) => f.startsWith('workflows/') },
  { node: 'client', holds: (f) => f.startsWith('client/') },
  { node: 'testing', holds: (f) => f.startsWith('testing/') },
  { node: 'console', holds: (f) => f.startsWith('console/') },
  { node: 'cli', holds: (f) => f.startsWith('cli/') },
  { node: 'entry', holds: (f) => f === 'index.ts' || f === 'worker.ts' },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|js|mjs)$/.test(name) ? [full] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)|require\(\s*'(\.[^']+)'\s*\)/g;

/** Resolves a relative specifier to a file of src/ (relative to src/), or undefined when it leaves src/. */
function resolveImport(fromFile: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.js`, path.join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) {
        const rel = path.relative(SRC, candidate).split(path.sep).join('/');
        return rel.startsWith('..') ? undefined : rel;
      }
    } catch {
      // not this candidate
    }
  }
  return undefined;
}

function fileImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    const from = path.relative(SRC, file).split(path.sep).join('/');
    const targets = new Set<string>();
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolveImport(file, match[1] ?? match[2] ?? match[3]!);
      if (target && target !== from) targets.add(target);
    }
    graph.set(from, targets);
  }
  return graph;
}

const layerOf = (file: string) => {
  const index = LAYERS.findIndex((layer) => layer.holds(file));
  if (index < 0) throw new Error(`src/${file} is in no layer of docs/architecture.md: place it in one, or add the layer to the picture and to LAYERS here`);
  return index;
};

/** The arrows of the layers picture: the first mermaid block after "## The layers". */
function pictureArrows(): Set<string> {
  const doc = readFileSync(path.join(repoRoot, 'docs/architecture.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## The layers'));
  const block = section.slice(section.indexOf('```mermaid'), section.indexOf('```', section.indexOf('```mermaid') + 10));
  const arrows = new Set<string>();
  for (const match of block.matchAll(/^\s*(\w+)\s+(?:-->|--\s+"[^"]*"\s+-->|-\.\s+"[^"]*"\s+\.->)\s+(\w+)\s*$/gm)) arrows.add(`${match[1]} --> ${match[2]}`);
  return arrows;
}

function findCircle(graph: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | undefined => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const circle = visit(next);
        if (circle) return circle;
      }
    }
    stack.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of graph.keys()) {
    if (!state.has(file)) {
      const circle = visit(file);
      if (circle) return circle;
    }
  }
  return undefined;
}

describe('docs/architecture.md', () => {
  const graph = fileImports();
  const layerArrows = new Map<string, string>();
  for (const [from, targets] of graph) {
    for (const target of targets) {
      const a = layerOf(from);
      const b = layerOf(target);
      if (a !== b) layerArrows.set(`${LAYERS[a]!.node} --> ${LAYERS[b]!.node}`, `src/${from} imports src/${target}`);
    }
  }

  it('reads the imports of the whole source tree', () => {
    // A scanner that silently finds nothing would pass every check below.
    expect(graph.size).toBeGreaterThan(250);
    expect([...graph.values()].reduce((n, targets) => n + targets.size, 0)).toBeGreaterThan(800);
  });

  it('has no import from a lower layer up to a higher one', () => {
    const up = [...graph].flatMap(([from, targets]) => [...targets].filter((t) => layerOf(t) > layerOf(from)).map((t) => `src/${from} imports src/${t}`));
    expect(up).toEqual([]);
  });

  it('draws only arrows the code has, and every import between layers follows a path the picture draws', () => {
    const drawn = pictureArrows();
    // The picture draws a layer's arrows to the layers it leans on; an import that skips a layer is
    // fine when the picture reaches that layer through the ones between (clients -> core through runtime).
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      [...drawn].some((arrow) => {
        const [a, b] = arrow.split(' --> ') as [string, string];
        if (a !== from || seen.has(b)) return false;
        seen.add(b);
        return b === to || reaches(b, to, seen);
      });
    const undrawn = [...layerArrows].filter(([arrow]) => {
      const [a, b] = arrow.split(' --> ') as [string, string];
      return !reaches(a, b);
    }).map(([arrow, why]) => `${arrow} (${why}): the picture has no path that way`);
    const stale = [...drawn].filter((arrow) => !layerArrows.has(arrow)).map((arrow) => `${arrow} is drawn, but no file imports that way`);
    expect(drawn.size).toBeGreaterThan(5);
    expect([...undrawn, ...stale]).toEqual([]);
  });

  it('has no circle of imports between files', () => {
    expect(findCircle(graph)).toBeUndefined();
  });

  it('keeps src/ to at most 10 top-level entries and every source file to at most 300 lines', () => {
    // Issue 20's limits: a newcomer finds their room among a few, and reads any file in one sitting.
    expect(readdirSync(SRC).filter((name) => name !== 'README.md').length).toBeLessThanOrEqual(10);
    const long = sourceFiles(SRC)
      .map((file) => ({ file: path.relative(repoRoot, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 300);
    expect(long).toEqual([]);
  });
});
