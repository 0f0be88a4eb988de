// The activity results a run starts from are parsed where they enter the workflow, not cast.
import { describe, expect, it } from 'vitest';
import { preferencesOf } from '../../src/workflows/run-state-init';

describe('preferencesOf', () => {
  it('keeps the worker facts it knows and drops the rest', () => {
    const { facts } = preferencesOf({ rules: [], approverKeys: { ana: 'KEY' }, sandboxed: true, other: 1 });
    expect(facts).toEqual({ approverKeys: { ana: 'KEY' }, sandboxed: true });
  });

  it('refuses an approver registry of the wrong shape instead of trusting it', () => {
    expect(() => preferencesOf({ rules: [], approverKeys: { ana: 42 } })).toThrow(/approverKeys/);
  });

  it('reads the first release\'s two tool lists as rules, with no worker facts', () => {
    expect(preferencesOf({ alwaysApproved: ['read_file'], alwaysRejected: ['shell'] })).toMatchObject({
      rules: [expect.objectContaining({ tool: 'read_file' }), expect.objectContaining({ tool: 'shell' })],
      facts: {},
    });
  });
});
