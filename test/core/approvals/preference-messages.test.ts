import { describe, expect, it } from 'vitest';
import { applyChange, toRules } from '../../../src/core/approvals/preference-messages';
import { describeScope, type PreferenceRule } from '../../../src/core/approvals/preference-rules';

const npmTest: PreferenceRule = { tool: 'shell', preference: 'always', match: { kind: 'command', pattern: { pattern: 'npm test', words: ['npm', 'test'] } } };

describe('applyChange', () => {
  it('keeps one choice per scope: a later choice for the same scope replaces the earlier one', () => {
    const once = applyChange([], { ...npmTest });
    const again = applyChange(once, { ...npmTest, preference: 'never' });
    expect(again).toHaveLength(1);
    expect(again[0]!.preference).toBe('never');
  });

  it('keeps choices for different scopes of one tool side by side', () => {
    const build: PreferenceRule = { ...npmTest, match: { kind: 'command', pattern: { pattern: 'npm run build', words: ['npm', 'run', 'build'] } } };
    expect(applyChange(applyChange([], npmTest), build).map(describeScope)).toEqual(['shell: npm test', 'shell: npm run build']);
  });

  it('revokes one scope, or every choice of a tool when no scope is named', () => {
    const rules = applyChange(applyChange([], npmTest), { tool: 'write_file', preference: 'always', match: { kind: 'argument', name: 'path', value: 'a.md', prefix: false } });
    expect(applyChange(rules, { tool: 'shell', preference: 'revoke', match: npmTest.match }).map((r) => r.tool)).toEqual(['write_file']);
    expect(applyChange(rules, { tool: 'shell', preference: 'revoke' }).map((r) => r.tool)).toEqual(['write_file']);
  });

  it('stores an "always" with its writes flag, and replaces it with a later choice for the same scope', () => {
    const writing = applyChange([], { ...npmTest, writes: true });
    expect(writing).toEqual([{ ...npmTest, writes: true }]);
    expect(applyChange(writing, { ...npmTest, writes: false })).toEqual([{ ...npmTest, writes: false }]);
  });

  it('makes a change without a scope tool-wide, the only kind the first release knew', () => {
    expect(applyChange([], { tool: 'shell', preference: 'always' })[0]!.match).toEqual({ kind: 'tool' });
  });
});

describe('toRules', () => {
  it('reads stored entries of the first release as tool-wide rules, marked as migrated', () => {
    expect(toRules([{ tool: 'shell', preference: 'never', by: 'alice' }])).toEqual([
      { tool: 'shell', preference: 'never', by: 'alice', match: { kind: 'tool' }, migrated: true },
    ]);
  });

  it('reads entries stored before the writes flag without one (they grant no writes), and keeps the flag of newer ones', () => {
    expect(toRules([npmTest])[0]).not.toHaveProperty('writes');
    expect(toRules([{ ...npmTest, writes: true }])).toEqual([{ ...npmTest, writes: true }]);
    // A malformed current rule is dropped, never read as a first-release entry (which would make it tool-wide).
    expect(toRules([{ ...npmTest, writes: 'yes' }, { ...npmTest, match: { kind: 'command', pattern: 'npm test' } }])).toEqual([]);
  });

  it('keeps current rules as they are and drops what is not an entry', () => {
    expect(toRules([npmTest, { nonsense: true }])).toEqual([npmTest]);
  });
});
