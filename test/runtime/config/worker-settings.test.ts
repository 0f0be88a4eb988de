// The worker settings parser, its banner and its unknown-variable warnings. What each setting does
// once parsed is shown end to end in test/runtime/worker-setup/settings-wiring.test.ts.
import { describe, expect, it } from 'vitest';
import { describeWorkerSettings } from '../../../src/runtime/config/settings-banner';
import { unknownSettingWarnings } from '../../../src/runtime/config/unknown-settings';
import { parseWorkerSettings, WorkerSettingsError } from '../../../src/runtime/config/worker-settings';

const base = { AGENT_AUDIT_LOG: 'off', AGENT_AUDIT_HEAD_DIR: '/var/tmp/heads' };

describe('parseWorkerSettings', () => {
  it('gives the documented defaults, with the tuning knobs under limits', () => {
    const settings = parseWorkerSettings(base);
    expect(settings.limits).toEqual({ maxCachedWorkflows: undefined, modelIdleSeconds: 120, promptCache: '5m' });
    expect(settings.workspace.root).toBe('./workspace');
    expect(settings.conversationStore).toBe('memory');
    expect(settings.temporal.taskQueue).toBe('agents');
    expect(settings.sandbox.toolEnv).toEqual([]);
  });

  it('reads the knobs and keeps the old spellings of AGENT_PROMPT_CACHE working', () => {
    const settings = parseWorkerSettings({ ...base, AGENT_MAX_CACHED_WORKFLOWS: ' 0 ', AGENT_MODEL_IDLE_SECONDS: '2.5', AGENT_PROMPT_CACHE: '1H', AGENT_TOOL_ENV: 'A, B,,' });
    expect(settings.limits).toEqual({ maxCachedWorkflows: 0, modelIdleSeconds: 2.5, promptCache: '1h' });
    expect(settings.sandbox.toolEnv).toEqual(['A', 'B']);
    for (const [raw, mode] of [['on', '5m'], ['true', '5m'], ['off', 'off'], ['false', 'off'], ['0', 'off']] as const) {
      expect(parseWorkerSettings({ ...base, AGENT_PROMPT_CACHE: raw }).limits.promptCache).toBe(mode);
    }
  });

  it('refuses bad values all at once, naming each variable, its value and what to do', () => {
    const env = { ...base, AGENT_PROMPT_CACHE: '2h', AGENT_MODEL_IDLE_SECONDS: '-3', AGENT_MAX_CACHED_WORKFLOWS: '1.5', AGENT_SANDBOX: 'docker', ANTHROPIC_BASE_URL: 'not a url', AGENT_METRICS_PORT: '99999' };
    let error: WorkerSettingsError | undefined;
    try {
      parseWorkerSettings(env);
    } catch (caught) {
      error = caught as WorkerSettingsError;
    }
    expect(error).toBeInstanceOf(WorkerSettingsError);
    expect(error!.problems).toEqual([
      'ANTHROPIC_BASE_URL="not a url" must be a URL such as https://api.anthropic.com.',
      'AGENT_MAX_CACHED_WORKFLOWS="1.5" must be a whole number (0 or more); unset it to keep the SDK\'s default.',
      'AGENT_MODEL_IDLE_SECONDS="-3" must be a number of seconds above 0 (the default is 120).',
      'AGENT_PROMPT_CACHE="2h" must be 5m (or on), 1h or off.',
      'AGENT_SANDBOX="docker" must be bwrap or none (or unset: bwrap when found).',
      'AGENT_METRICS_PORT must be a port number (0-65535), not "99999".',
    ]);
    expect(error!.message).toMatch(/^The worker's settings are wrong, so it did not start:\n- ANTHROPIC_BASE_URL/);
    expect(error!.message).toContain('see the configuration table in README.md');
  });

  it('reads AGENT_COMMAND_CGROUPS as auto (the default) or off, shows it in the banner, and refuses anything else by name', () => {
    expect(parseWorkerSettings(base).sandbox.commandCgroups).toBe('auto');
    expect(parseWorkerSettings({ ...base, AGENT_COMMAND_CGROUPS: '' }).sandbox.commandCgroups).toBe('auto');
    expect(parseWorkerSettings({ ...base, AGENT_COMMAND_CGROUPS: 'auto' }).sandbox.commandCgroups).toBe('auto');
    const off = parseWorkerSettings({ ...base, AGENT_COMMAND_CGROUPS: ' OFF ' });
    expect(off.sandbox.commandCgroups).toBe('off');
    expect(describeWorkerSettings(off)).toContain('AGENT_COMMAND_CGROUPS: off (limits.totalMemoryBytes, totalProcesses and cpuCores are not enforced; only the rlimits hold)');
    expect(describeWorkerSettings(parseWorkerSettings(base))).toContain('AGENT_COMMAND_CGROUPS: auto');
    expect(() => parseWorkerSettings({ ...base, AGENT_COMMAND_CGROUPS: 'no' })).toThrow(WorkerSettingsError);
    try {
      parseWorkerSettings({ ...base, AGENT_COMMAND_CGROUPS: 'no' });
    } catch (error) {
      expect((error as WorkerSettingsError).problems).toEqual(['AGENT_COMMAND_CGROUPS="no" must be auto or off (or unset: auto).']);
    }
  });

  it('reads AGENT_SCAN_MAX_ENTRIES as a whole number above 0 (default 100000), shows it in the banner, and refuses anything else by name', () => {
    expect(parseWorkerSettings(base).sandbox.scanMaxEntries).toBe(100_000);
    const raised = parseWorkerSettings({ ...base, AGENT_SCAN_MAX_ENTRIES: ' 1000000 ' });
    expect(raised.sandbox.scanMaxEntries).toBe(1_000_000);
    expect(describeWorkerSettings(raised)).toContain('AGENT_SCAN_MAX_ENTRIES: 1000000');
    for (const bad of ['0', '-5', '1e6', 'lots', '2.5']) {
      expect(() => parseWorkerSettings({ ...base, AGENT_SCAN_MAX_ENTRIES: bad })).toThrow(`AGENT_SCAN_MAX_ENTRIES="${bad}" must be a whole number above 0 (the default is 100000).`);
    }
  });

  it('refuses a malformed encryption key with the codec\'s own message', () => {
    expect(() => parseWorkerSettings({ ...base, AGENT_ENCRYPTION_KEY: 'nokey' })).toThrow(/AGENT_ENCRYPTION_KEY/);
  });
});

describe('describeWorkerSettings', () => {
  it('prints every secret masked and a store URL without its password', () => {
    const key = 'sk-ant-0123456789abcdef';
    const lines = describeWorkerSettings(
      parseWorkerSettings({ ...base, ANTHROPIC_API_KEY: key, AGENT_CONVERSATION_STORE: 'postgres://agent:hunter22@db:5432/agents', AGENT_PROMPT_CACHE: '1h' }),
    );
    const text = lines.join('\n');
    expect(lines).toContain('ANTHROPIC_API_KEY: set (…cdef)');
    expect(text).not.toContain(key);
    expect(text).not.toContain('hunter22');
    expect(text).toContain('AGENT_CONVERSATION_STORE: postgres://agent:***@db:5432/agents');
    expect(lines).toContain('AGENT_PROMPT_CACHE: 1h');
    expect(lines).toContain('AGENT_AUDIT_LOG: off');
  });
});

describe('unknownSettingWarnings', () => {
  it('warns of each AGENT_* name nothing reads, suggesting the close one, and ignores other variables', () => {
    expect(unknownSettingWarnings({ AGENT_PROMPT_CAHCE: '1h', AGENT_SANBOX: 'none', AGENT_FROBNICATE: '1', HOME: '/root', AGENT_WORKSPACE: '/w' })).toEqual([
      'AGENT_FROBNICATE is set, but the worker reads no such variable; it is ignored.',
      'AGENT_PROMPT_CAHCE is set, but the worker reads no such variable; it is ignored. Did you mean AGENT_PROMPT_CACHE?',
      'AGENT_SANBOX is set, but the worker reads no such variable; it is ignored. Did you mean AGENT_SANDBOX?',
    ]);
  });
});
