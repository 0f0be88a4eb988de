import { describe, expect, it } from 'vitest';
import { toToolPreferences, withChoice } from '../../src/approvals/preference-messages';

describe('withChoice', () => {
  const none = { alwaysApproved: [], alwaysRejected: [] };

  it('adds a tool to the list of its choice once', () => {
    expect(withChoice(none, 'shell', 'always')).toEqual({ alwaysApproved: ['shell'], alwaysRejected: [] });
    expect(withChoice(withChoice(none, 'shell', 'always'), 'shell', 'always')).toEqual({ alwaysApproved: ['shell'], alwaysRejected: [] });
  });

  it('lets the latest choice win: "always" after "never" moves the tool, and the reverse', () => {
    const never = withChoice({ alwaysApproved: ['write_file'], alwaysRejected: [] }, 'shell', 'never');
    expect(never).toEqual({ alwaysApproved: ['write_file'], alwaysRejected: ['shell'] });
    expect(withChoice(never, 'shell', 'always')).toEqual({ alwaysApproved: ['write_file', 'shell'], alwaysRejected: [] });
    expect(withChoice(never, 'write_file', 'never')).toEqual({ alwaysApproved: [], alwaysRejected: ['shell', 'write_file'] });
  });

  it('does not change the preferences it is given', () => {
    const given = { alwaysApproved: ['shell'], alwaysRejected: [] };
    withChoice(given, 'shell', 'never');
    expect(given).toEqual({ alwaysApproved: ['shell'], alwaysRejected: [] });
  });
});

describe('toToolPreferences', () => {
  it('splits stored entries into the lists the policy reads', () => {
    expect(
      toToolPreferences([
        { tool: 'shell', preference: 'never' },
        { tool: 'write_file', preference: 'always', by: 'alice' },
      ]),
    ).toEqual({ alwaysApproved: ['write_file'], alwaysRejected: ['shell'] });
  });
});
