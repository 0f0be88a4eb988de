import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TemporalConfigError, temporalConnection } from '../../../src/runtime/config/temporal-connection';
import { temporalSettings } from '../../../src/runtime/config/worker-config';
import { profileFile } from '../../support/temporal-profile';

describe('temporalConnection', () => {
  it('defaults to the local dev server', () => {
    const c = temporalConnection({ TEMPORAL_CONFIG_FILE: path.join(tmpdir(), 'no-such-temporal.toml') });
    expect(c).toMatchObject({ address: 'localhost:7233', namespace: 'default', source: 'profile "default" in ' + path.join(tmpdir(), 'no-such-temporal.toml') });
    expect(c.options.tls).toBeUndefined();
  });

  it('takes address and namespace from the profile TEMPORAL_PROFILE names', () => {
    const file = profileFile({ address: 'staging.example:7233', namespace: 'agents-staging' });
    const c = temporalConnection({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'staging' });
    expect(c).toMatchObject({ address: 'staging.example:7233', namespace: 'agents-staging', source: `profile "staging" in ${file}` });
  });

  it('lets the standard variables override the profile, and an API key turns TLS on', () => {
    const file = profileFile({ address: 'staging.example:7233', namespace: 'agents-staging' });
    const c = temporalConnection({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'staging', TEMPORAL_NAMESPACE: 'other', TEMPORAL_API_KEY: 'secret-key' });
    expect(c.namespace).toBe('other');
    expect(c.options).toMatchObject({ address: 'staging.example:7233', apiKey: 'secret-key', tls: true });
  });

  it('reads TLS settings and gRPC metadata from the environment', () => {
    const c = temporalConnection({ TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233', TEMPORAL_TLS: 'true', TEMPORAL_TLS_SERVER_NAME: 'ns.acct', TEMPORAL_GRPC_META_X_TEAM: 'agents' });
    expect(c.options.tls).toMatchObject({ serverNameOverride: 'ns.acct' });
    expect(c.options.metadata).toEqual({ 'x-team': 'agents' });
  });

  it('treats empty variables as unset, as it always has', () => {
    expect(temporalConnection({ TEMPORAL_ADDRESS: '', TEMPORAL_NAMESPACE: '', TEMPORAL_CONFIG_FILE: path.join(tmpdir(), 'none.toml') })).toMatchObject({ address: 'localhost:7233', namespace: 'default' });
  });

  it('names the file when the profile is missing', () => {
    const file = profileFile({ address: 'x:1', namespace: 'y' });
    expect(() => temporalConnection({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'prod' })).toThrow(TemporalConfigError);
    expect(() => temporalConnection({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'prod' })).toThrow(/prod.*not found|not found.*prod/);
  });
});

describe('temporalSettings', () => {
  it('keeps TEMPORAL_TASK_QUEUE and adds the codec only when AGENT_ENCRYPTION_KEY is set', () => {
    const plain = temporalSettings({ TEMPORAL_TASK_QUEUE: 'mine', TEMPORAL_CONFIG_FILE: path.join(tmpdir(), 'none.toml') });
    expect(plain.taskQueue).toBe('mine');
    expect(plain.dataConverter.payloadCodecs ?? []).toHaveLength(0);
    const sealed = temporalSettings({ AGENT_ENCRYPTION_KEY: `k1:${Buffer.alloc(32, 7).toString('base64')}`, TEMPORAL_CONFIG_FILE: path.join(tmpdir(), 'none.toml') });
    expect(sealed.dataConverter.payloadCodecs).toHaveLength(1);
  });
});
