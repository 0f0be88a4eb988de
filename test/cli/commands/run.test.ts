import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../src/cli/commands/run';
import { UsageError } from '../../../src/client/errors';

describe('parseDuration (--approval-timeout)', () => {
  it('takes plain seconds or 90s, 15m, 2h, 7d, and refuses anything else with a usage error', () => {
    expect(parseDuration('approval-timeout', '90')).toBe(90);
    expect(parseDuration('approval-timeout', '90s')).toBe(90);
    expect(parseDuration('approval-timeout', '15m')).toBe(15 * 60);
    expect(parseDuration('approval-timeout', '2h')).toBe(2 * 3600);
    expect(parseDuration('approval-timeout', '7d')).toBe(7 * 86_400);
    for (const bad of ['soon', '0', '-5m', '2w', '']) {
      expect(() => parseDuration('approval-timeout', bad)).toThrow(UsageError);
    }
    expect(() => parseDuration('approval-timeout', 'soon')).toThrow(/--approval-timeout must be a positive duration/);
  });
});
