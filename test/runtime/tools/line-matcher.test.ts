import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { SearchTimeoutError } from '../../../src/runtime/tools/file-errors';
import { createLineMatcher } from '../../../src/runtime/tools/line-matcher';

describe('createLineMatcher', () => {
  it('matches plain text literally, case-insensitively unless asked', async () => {
    const matcher = createLineMatcher('a.b', { regex: false, caseSensitive: false });
    expect(await matcher.match(['axb', 'A.B', 'a.b'])).toEqual([1, 2]);
  });

  it('matches a regular expression in its own thread', async () => {
    const matcher = createLineMatcher('^x\\d+$', { regex: true, caseSensitive: true });
    try {
      expect(await matcher.match(['x1', 'X2', 'x33', 'x'])).toEqual([0, 2]);
      expect(await matcher.match(['x9'])).toEqual([0]);
    } finally {
      await matcher.close();
    }
  });

  it('throws SyntaxError for an invalid expression before starting a thread', () => {
    expect(() => createLineMatcher('(', { regex: true, caseSensitive: false })).toThrow(SyntaxError);
  });

  it('stops a catastrophic expression at its budget without blocking the event loop', async () => {
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const matcher = createLineMatcher('^(a+)+$', { regex: true, caseSensitive: false }, 500);
    const started = Date.now();
    try {
      await expect(matcher.match([`${'a'.repeat(40)}b`])).rejects.toThrow(SearchTimeoutError);
    } finally {
      await matcher.close();
      lag.disable();
    }
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(lag.max / 1e6).toBeLessThan(200);
  });
});
