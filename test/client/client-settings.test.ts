// The client settings parser (agentctl and its console read the environment once, through it), and
// the real agentctl binary refusing a bad client variable before it does anything.
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClientSettingsError, parseClientSettings } from '../../src/client/client-settings';
import { startAgentctl } from './agentctl-process';

const KEY = `k1:${Buffer.alloc(32, 7).toString('base64')}`;

describe('parseClientSettings', () => {
  it('gives the documented defaults', () => {
    const settings = parseClientSettings({ USER: 'dana', HOME: '/home/dana' });
    expect(settings.temporal).toMatchObject({ address: 'localhost:7233', namespace: 'default', taskQueue: 'agents' });
    expect(settings.approver).toBe('dana');
    expect(settings.keysDir).toMatch(/[/\\]\.config[/\\]durable-agent[/\\]keys$/);
    expect(settings.codec).toEqual({ keys: undefined, token: undefined });
    expect(settings.audit).toEqual({ log: undefined, dir: path.resolve('.agent-audit'), headDir: path.join('/home/dana', '.local', 'state', 'durable-agent', 'audit-heads') });
    expect(settings.tracing).toBeUndefined();
    expect(settings.console).toMatchObject({ port: undefined, localUser: 'dana', taskQueue: 'agents' });
  });

  it('reads every client variable into its field', () => {
    const settings = parseClientSettings({
      TEMPORAL_ADDRESS: '10.0.0.5:7233', TEMPORAL_NAMESPACE: 'prod', TEMPORAL_TASK_QUEUE: 'q1', USER: 'erin', AGENT_KEYS_DIR: '/keys',
      AGENT_ENCRYPTION_KEY: KEY, AGENT_CODEC_TOKEN: 'tok', AGENT_AUDIT_LOG: '/logs/one.log', AGENT_AUDIT_DIR: '/logs', AGENT_AUDIT_HEAD_DIR: '/heads',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/', AGENT_CONSOLE_PORT: '0', AGENT_CONSOLE_HOST: '0.0.0.0',
    });
    expect(settings.temporal).toMatchObject({ address: '10.0.0.5:7233', namespace: 'prod', taskQueue: 'q1' });
    expect(settings.temporal.dataConverter.payloadCodecs).toHaveLength(1);
    expect(settings.keysDir).toBe('/keys');
    expect(settings.codec.keys?.current.id).toBe('k1');
    expect(settings.codec.token).toBe('tok');
    expect(settings.audit).toEqual({ log: '/logs/one.log', dir: '/logs', headDir: '/heads' });
    expect(settings.tracing?.url).toBe('http://collector:4318/v1/traces');
    expect(settings.console).toMatchObject({ port: 0, host: '0.0.0.0', localUser: 'erin', taskQueue: 'q1' });
    expect(parseClientSettings({ AGENT_AUDIT_LOG: 'off' }).audit.log).toBeUndefined();
  });

  it('refuses bad values all at once, naming each variable and what to do', () => {
    let error: unknown;
    try {
      parseClientSettings({ AGENT_CONSOLE_PORT: 'eighty', AGENT_ENCRYPTION_OLD_KEYS: KEY });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ClientSettingsError);
    const { message, problems } = error as ClientSettingsError;
    expect(problems).toHaveLength(2);
    expect(message).toContain('AGENT_CONSOLE_PORT="eighty" is not a TCP port: use a number from 0 to 65535');
    expect(message).toContain('AGENT_ENCRYPTION_OLD_KEYS is set but AGENT_ENCRYPTION_KEY is not: set the current key too.');
    expect(message).toContain('Fix the environment variables above');
  });
});

describe('agentctl with a bad client variable', () => {
  it('says which variable is wrong and what to do, exits 2, and does not try to connect', async () => {
    // Nothing listens on port 9: had it connected, the error would be "Cannot reach Temporal".
    const { code, stdout, stderr } = await startAgentctl(['list'], { TEMPORAL_ADDRESS: '127.0.0.1:9', AGENT_ENCRYPTION_KEY: 'k1:short' }).done;
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain("agentctl's settings are wrong, so it did nothing:");
    expect(stderr).toMatch(/- AGENT_ENCRYPTION_KEY .+/);
    expect(stderr).not.toContain('Cannot reach Temporal');
  });

  it('still prints a verb\'s usage with --help', async () => {
    const { code, stdout } = await startAgentctl(['list', '--help'], { AGENT_CONSOLE_PORT: 'eighty' }).done;
    expect(code).toBe(0);
    expect(stdout).toContain('agentctl list');
  });
});
