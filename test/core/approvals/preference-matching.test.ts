import { describe, expect, it } from 'vitest';
import { toRules } from '../../../src/core/approvals/preference-messages';
import { normalizePath } from '../../../src/core/approvals/preference-matching';
import { preferenceMatches } from '../../../src/core/approvals/preference-rules';
import { analyze } from './shell/shell-test-helpers';

const shellCall = async (command: string) => ({ tool: 'shell', input: { command }, command: (await analyze(command)).commands[0] });

describe('preferenceMatches by meaning', () => {
  it('loads a command choice stored before the prefix flag and reads its * literally (issue 18, bypass 5)', async () => {
    const [legacy] = toRules([{ tool: 'shell', preference: 'always', match: { kind: 'command', pattern: { pattern: 'find . -name *', words: ['find', '.', '-name', '*'] } } }]);
    expect(legacy).toBeDefined();
    expect(preferenceMatches(legacy!, await shellCall('find . -name canary -delete'))).toBe(false);
    expect(preferenceMatches(legacy!, await shellCall("find . -name '*'"))).toBe(true);
  });

  it('covers more words only for a prefix the person chose', async () => {
    const [prefix] = toRules([{ tool: 'shell', preference: 'always', match: { kind: 'command', pattern: { pattern: 'npm run *', words: ['npm', 'run', '*'] }, prefix: true } }]);
    expect(preferenceMatches(prefix!, await shellCall('npm run build -- --watch'))).toBe(true);
    expect(preferenceMatches(prefix!, await shellCall('npm run $(rm x)'))).toBe(false);
    expect(preferenceMatches(prefix!, await shellCall('npm test'))).toBe(false);
  });

  it('still lets an old "never" with * catch variants', async () => {
    const [never] = toRules([{ tool: 'shell', preference: 'never', match: { kind: 'command', pattern: { pattern: 'rm *', words: ['rm', '*'] } } }]);
    expect(preferenceMatches(never!, await shellCall('rm -rf /'))).toBe(true);
  });

  it('compares normalized paths (issue 18, bypass 6)', () => {
    const path = (preference: 'always' | 'never', value: string, requested: string) =>
      preferenceMatches({ tool: 'write_file', preference, match: { kind: 'argument', name: 'path', value, prefix: true } }, { tool: 'write_file', input: { path: requested } });
    expect(path('always', 'notes/', 'notes/today.md')).toBe(true);
    expect(path('always', 'notes/', './notes//today.md')).toBe(true);
    expect(path('always', 'notes/', 'notes/../.git/config')).toBe(false);
    expect(path('always', 'notes/', 'notes/../../etc/passwd')).toBe(false);
    expect(path('always', 'notes/', 'notes-private/x')).toBe(false);
    expect(path('never', 'secrets/', './secrets/key.pem')).toBe(true);
    expect(path('never', 'secrets/', 'a/../secrets/key.pem')).toBe(true);
    expect(path('never', 'secrets/', '/work/ws/secrets/key.pem')).toBe(true);
    expect(path('never', 'secrets/', 'public/key.pem')).toBe(false);
  });

  it('normalizes like the file tools read a path', () => {
    expect(['a/./b//c/../d', './x', '/a/../../b', '../a/../../b', 'a/..'].map(normalizePath)).toEqual(['a/b/d', 'x', '/b', '../../b', '.']);
  });
});
