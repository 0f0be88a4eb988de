import { describe, expect, it } from 'vitest';
import { workflowIdProblem } from '../../../../src/core/approvals/signatures/workflow-id';

describe('workflowIdProblem', () => {
  it.each([
    ['a newline', 'run\ncall', 'U+000A'],
    ['a carriage return', 'run\rx', 'U+000D'],
    ['a tab', 'run\tx', 'U+0009'],
    ['DEL', 'run\u007f', 'U+007F'],
    ['a C1 control', 'run\u0085', 'U+0085'],
    ['right-to-left override', 'docs/\u202Edm.hs', 'U+202E'],
    ['a bidi isolate', 'a\u2066b', 'U+2066'],
    ['a zero-width space', 'a\u200Bb', 'U+200B'],
    ['the line separator', 'a\u2028b', 'U+2028'],
  ])('refuses %s, naming the character', (_name, id, code) => {
    expect(workflowIdProblem(id)).toContain(code);
  });

  it('accepts what agentctl and the console make, sub-agent ids and non-Latin letters', () => {
    for (const id of ['agent-general-20261125120000-abc123', 'run-1/sub-toolu_0_0/sub-toolu_0_1', 'équipe-東京 run']) expect(workflowIdProblem(id)).toBeUndefined();
  });
});
