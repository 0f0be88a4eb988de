import { describe, expect, it } from 'vitest';
import { CODE_LOADING_VARIABLES, isCodeLoadingVariable } from '../../../../src/contract/code-loading-variables';
import { DEFAULT_TOOL_PATH, toolEnvironment, UNSEEN_GIT_CONFIG } from '../../../../src/runtime/tools/sandbox/tool-environment';

/** What every command gets whoever let it run. */
const RUNTIME = { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', PAGER: 'cat', PYTHONNOUSERSITE: '1' };

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
  const base = { home: '/tmp/agent-home-1', workspace: '/ws', seen: true };

  it('keeps only PATH, LANG and TERM from the source, sets HOME to the call\'s own folder, and adds the runtime settings', () => {
    expect(toolEnvironment({ ...base, allow: [], source })).toEqual({
      PATH: '/opt/x/bin:/usr/bin',
      HOME: '/tmp/agent-home-1',
      LANG: 'de_DE.UTF-8',
      TERM: 'xterm',
      ...RUNTIME,
    });
  });

  it('adds allow-listed variables the source has and skips those it lacks', () => {
    const env = toolEnvironment({ ...base, allow: ['GIT_AUTHOR_NAME', 'NOT_SET'], source });
    expect(env.GIT_AUTHOR_NAME).toBe('Ada');
    expect(env).not.toHaveProperty('NOT_SET');
    expect(env).not.toHaveProperty('ANTHROPIC_API_KEY');
  });

  it('keeps HOME and the runtime settings even when the allow-list names them', () => {
    const env = toolEnvironment({ ...base, allow: ['HOME', 'PAGER', 'PYTHONNOUSERSITE'], source: { ...source, PAGER: 'less', PYTHONNOUSERSITE: '' } });
    expect(env).toMatchObject({ HOME: '/tmp/agent-home-1', PAGER: 'cat', PYTHONNOUSERSITE: '1' });
  });

  it('never passes a variable that loads code, even an allow-listed one', () => {
    const hostile = { LD_PRELOAD: '/ws/evil.so', BASH_ENV: '/ws/x', NODE_OPTIONS: '--require /ws/x.js', PYTHONSTARTUP: '/ws/s.py', PERL5OPT: '-M/ws/x', GIT_SSH_COMMAND: 'sh /ws/x', GIT_DIR: '/ws/cfg' };
    const env = toolEnvironment({ ...base, allow: Object.keys(hostile), source: { ...source, ...hostile } });
    for (const name of Object.keys(hostile)) expect(env).not.toHaveProperty(name);
  });

  it('keeps only absolute search-path entries outside the workspace: an empty entry is the current folder', () => {
    const env = toolEnvironment({ ...base, allow: ['PYTHONPATH', 'LD_LIBRARY_PATH'], source: { ...source, PATH: ':/usr/bin:./bin:/ws/node_modules/.bin:/ws:/opt/y/bin:', PYTHONPATH: '/opt/lib:lib:/ws/lib', LD_LIBRARY_PATH: '::/ws' } });
    expect(env.PATH).toBe('/usr/bin:/opt/y/bin');
    expect(env.PYTHONPATH).toBe('/opt/lib');
    expect(env.LD_LIBRARY_PATH).toBe('');
    expect(toolEnvironment({ ...base, allow: [], source: { PATH: '.:/ws/bin' } }).PATH).toBe(DEFAULT_TOOL_PATH);
  });

  it('uses standard defaults when the source has no PATH, LANG or TERM', () => {
    expect(toolEnvironment({ ...base, allow: [], source: {} })).toEqual({ PATH: DEFAULT_TOOL_PATH, HOME: '/tmp/agent-home-1', LANG: 'C.UTF-8', TERM: 'dumb', ...RUNTIME });
  });

  it('forces git\'s code-running settings off for a call no person saw, through GIT_CONFIG_COUNT, and not for one a person approved', () => {
    const unseen = toolEnvironment({ ...base, seen: false, allow: [], source });
    expect(unseen.GIT_CONFIG_COUNT).toBe(String(UNSEEN_GIT_CONFIG.length));
    const forced = Object.fromEntries(UNSEEN_GIT_CONFIG.map((_, i) => [unseen[`GIT_CONFIG_KEY_${i}`], unseen[`GIT_CONFIG_VALUE_${i}`]]));
    expect(forced).toMatchObject({ 'core.fsmonitor': 'false', 'core.hooksPath': '/dev/null', 'core.sshCommand': 'ssh', 'core.pager': 'cat', 'protocol.ext.allow': 'never', 'credential.helper': '', 'safe.bareRepository': 'explicit' });
    expect(toolEnvironment({ ...base, seen: true, allow: [], source })).not.toHaveProperty('GIT_CONFIG_COUNT');
  });
});

describe('isCodeLoadingVariable', () => {
  it('refuses the listed names, exported bash functions and git\'s variables except who made a commit', () => {
    for (const name of CODE_LOADING_VARIABLES) expect(isCodeLoadingVariable(name)).toBe(true);
    expect(isCodeLoadingVariable('BASH_FUNC_cat')).toBe(true);
    expect(isCodeLoadingVariable('GIT_CONFIG_PARAMETERS')).toBe(true);
    expect(isCodeLoadingVariable('GIT_EXEC_PATH')).toBe(true);
    expect(isCodeLoadingVariable('GIT_AUTHOR_NAME')).toBe(false);
    expect(isCodeLoadingVariable('NPM_TOKEN')).toBe(false);
  });
});
