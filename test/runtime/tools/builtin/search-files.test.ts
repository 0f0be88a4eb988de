import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { searchFilesTool } from '../../../../src/runtime/tools/builtin/search-files';
import { OutputLimits } from '../../../../src/runtime/tools/output-limits';
import { removeTempDirs, tempDir, toolContext } from '../tool-test-context';

describe('search_files', () => {
  let root: string;
  const search = (input: Parameters<typeof searchFilesTool.execute>[0]) => searchFilesTool.execute(input, toolContext(root));

  beforeEach(async () => {
    root = await tempDir();
    await mkdir(path.join(root, 'src'));
    const filler = Array.from({ length: 200 }, (_, i) => `filler line ${i}`);
    filler[41] = 'const Needle = findTheNeedle();';
    await writeFile(path.join(root, 'src/big.ts'), filler.join('\n'));
    await writeFile(path.join(root, 'notes.md'), 'no match here\nanother needle, lower case\n');
  });
  afterAll(removeTempDirs);

  it('returns matching lines as path:line: text, not whole files', async () => {
    const result = await search({ query: 'needle' });
    expect(result.success).toBe(true);
    expect(result.output).toBe(
      ['2 match(es):', 'notes.md:2: another needle, lower case', 'src/big.ts:42: const Needle = findTheNeedle();'].join('\n'),
    );
    expect(result.output).not.toContain('filler');
  });

  it('matches case-sensitively on request, and regular expressions with regex: true', async () => {
    expect((await search({ query: 'Needle', caseSensitive: true })).output).toMatch(/^1 match\(es\):\nsrc\/big.ts:42:/);
    const regex = await search({ query: '^filler line 19\\d$', regex: true, path: 'src' });
    expect(regex.output.split('\n')).toEqual(['10 match(es):', ...Array.from({ length: 10 }, (_, i) => `src/big.ts:${191 + i}: filler line ${190 + i}`)]);
    // A literal query is not a pattern: "." matches only a dot.
    expect((await search({ query: 'find.he' })).output).toBe('No matches for "find.he".');
  });

  it('stops at the match cap and says how to narrow the search', async () => {
    const result = await search({ query: 'filler' });
    expect(result.output.split('\n')).toHaveLength(OutputLimits.maxSearchMatches + 2);
    expect(result.output).toMatch(/stopped at 60 matches; narrow the query or path/);
  });

  it('reports an invalid regular expression and a missing path as errors', async () => {
    expect(await search({ query: '(unclosed', regex: true })).toMatchObject({ success: false, output: expect.stringMatching(/Invalid regular expression/) });
    expect(await search({ query: 'x', path: 'nowhere' })).toMatchObject({ success: false, output: 'Not found: nowhere' });
  });
});
