import { describe, expect, it } from 'vitest';
import { DEFAULT_TOOL_PATH, toolEnvironment } from '../../../../src/runtime/tools/sandbox/tool-environment';

describe('toolEnvironment', () => {
  const source = {
    PATH: '/opt/x/bin:/usr/bin',
    HOME: '/root',
    LANG: 'de_DE.UTF-8',
    TERM: 'xterm',
    ANTHROPIC_API_KEY: 'sk-ant-secret',
    TEMPORAL_ADDRESS: 'localhost:7233',
    GIT_AUTHOR_NAME: 'Ada',
  };

  it('keeps only PATH, LANG and TERM from the source and sets HOME to the workspace', () => {
    expect(toolEnvironment({ home: '/ws', allow: [], source })).toEqual({
      PATH: '/opt/x/bin:/usr/bin',
      HOME: '/ws',
      LANG: 'de_DE.UTF-8',
      TERM: 'xterm',
    });
  });

  it('adds allow-listed variables the source has and skips those it lacks', () => {
    const env = toolEnvironment({ home: '/ws', allow: ['GIT_AUTHOR_NAME', 'NOT_SET'], source });
    expect(env.GIT_AUTHOR_NAME).toBe('Ada');
    expect(env).not.toHaveProperty('NOT_SET');
    expect(env).not.toHaveProperty('ANTHROPIC_API_KEY');
  });

  it('keeps HOME on the workspace even when the allow-list names it', () => {
    expect(toolEnvironment({ home: '/ws', allow: ['HOME'], source }).HOME).toBe('/ws');
  });

  it('uses standard defaults when the source has no PATH, LANG or TERM', () => {
    expect(toolEnvironment({ home: '/ws', allow: [], source: {} })).toEqual({
      PATH: DEFAULT_TOOL_PATH,
      HOME: '/ws',
      LANG: 'C.UTF-8',
      TERM: 'dumb',
    });
  });
});
