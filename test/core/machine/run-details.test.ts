import { describe, expect, it } from 'vitest';
import { runDetails } from '../../../src/core/machine/run-details';
import { runState } from './state-factory';

describe('runDetails', () => {
  it("says how many of the run's output tokens were thinking, once there were some", () => {
    const usage = { inputTokens: 10, outputTokens: 2_500, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
    expect(runDetails(runState({ usage }))).not.toContain('Thinking');
    expect(runDetails(runState({ usage: { ...usage, thinkingTokens: 1_800 } }))).toContain('Thinking: 1,800 of 2,500 output tokens so far.');
  });
});
