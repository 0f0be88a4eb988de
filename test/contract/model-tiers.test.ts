import { describe, expect, it } from 'vitest';
import { modelIdForTier } from '../../src/contract/model-tiers';

describe('modelIdForTier', () => {
  it('gives each tier its current default when the worker settings do not override it', () => {
    expect(modelIdForTier('fast', {})).toBe('claude-haiku-5-5');
    expect(modelIdForTier('balanced', {})).toBe('claude-sonnet-5-5');
    expect(modelIdForTier('powerful', {})).toBe('claude-opus-5-5');
  });

  it('takes AGENT_MODEL_FAST, _BALANCED and _POWERFUL from the settings it is given, each for its own tier', () => {
    const env = { AGENT_MODEL_FAST: 'pinned-fast', AGENT_MODEL_BALANCED: 'pinned-balanced', AGENT_MODEL_POWERFUL: 'pinned-powerful' };
    expect(modelIdForTier('fast', env)).toBe('pinned-fast');
    expect(modelIdForTier('balanced', env)).toBe('pinned-balanced');
    expect(modelIdForTier('powerful', env)).toBe('pinned-powerful');
    expect(modelIdForTier('balanced', { AGENT_MODEL_FAST: 'pinned-fast' })).toBe('claude-sonnet-5-5');
  });

  it('treats an empty override as unset', () => {
    expect(modelIdForTier('fast', { AGENT_MODEL_FAST: '' })).toBe('claude-haiku-5-5');
  });
});
