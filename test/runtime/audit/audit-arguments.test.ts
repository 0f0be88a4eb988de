import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/core/approvals/canonical-json';
import { auditArguments, DigestedArgumentsSchema } from '../../../src/runtime/audit/audit-arguments';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('auditArguments', () => {
  it('keeps small arguments as they are', () => {
    const args = { path: 'notes.md', content: 'hello', mode: 'append' };
    expect(auditArguments(args)).toBe(args);
    expect(auditArguments(undefined)).toBeUndefined();
  });

  it('turns a 50 KB write_file content into a digest and a short preview that still shows the path', () => {
    const content = `# Notes\n${'lorem ipsum dolor sit amet '.repeat(2_000)}`.slice(0, 50_000);
    const args = { path: 'docs/notes.md', content };
    const kept = DigestedArgumentsSchema.parse(auditArguments(args));
    expect(kept.digest).toBe(`sha256:${sha256(canonicalJson(args))}`);
    expect(kept.size).toBe(canonicalJson(args).length);
    expect(kept.preview.length).toBeLessThanOrEqual(200);
    expect(kept.preview).toContain('"path":"docs/notes.md"');
    expect(kept.preview).toMatch(/"content":"# Notes\\nlorem ipsum.*…\[\+\d+ chars\]"/);
    expect(JSON.stringify(kept).length).toBeLessThan(400);
  });

  it('gives the same digest whatever order the keys were written in', () => {
    const content = 'x'.repeat(5_000);
    const a = auditArguments({ path: 'a.md', content, options: { b: 1, a: [{ z: 1, y: 2 }] } });
    const b = auditArguments({ options: { a: [{ y: 2, z: 1 }], b: 1 }, content, path: 'a.md' });
    expect(a).toEqual(b);
  });

  it('digests one long string even in short arguments, and many short strings that add up', () => {
    expect(DigestedArgumentsSchema.safeParse(auditArguments({ command: 'y'.repeat(201) })).success).toBe(true);
    expect(DigestedArgumentsSchema.safeParse(auditArguments({ command: 'y'.repeat(200) })).success).toBe(false);
    const many = { files: Array.from({ length: 100 }, (_, i) => `src/file-${i}.ts`) };
    expect(DigestedArgumentsSchema.safeParse(auditArguments(many)).success).toBe(true);
  });

  it('leaves digested arguments alone, so applying it twice changes nothing', () => {
    const once = auditArguments({ content: 'z'.repeat(1_000) });
    expect(auditArguments(once)).toBe(once);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and otherwise reads as JSON.stringify', () => {
    const value = { b: [3, { d: 1, c: undefined, a: 'x' }], a: null, when: new Date('2025-01-01T00:00:00Z'), skip: undefined };
    expect(canonicalJson(value)).toBe('{"a":null,"b":[3,{"a":"x","d":1}],"when":"2025-01-01T00:00:00.000Z"}');
    expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
    expect(canonicalJson([undefined, 'é\n'])).toBe('[null,"é\\n"]');
  });
});
