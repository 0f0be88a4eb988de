// AGENT_DEPLOYMENT_NAME and AGENT_BUILD_ID (issue 36, must-haves 2 and 5): both or neither. Half a
// deployment is refused at start, naming the variable, and so is the `deployment` option of
// createAgentWorker; neither keeps the worker unversioned, as before. The versioned worker itself is
// shown on the dev server in test/runtime/worker-setup/worker-versioning.test.ts.
import { describe, expect, it } from 'vitest';
import { describeWorkerSettings } from '../../../src/runtime/config/settings-banner';
import { parseWorkerSettings, WorkerSettingsError } from '../../../src/runtime/config/worker-settings';
import { createAgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';

const base = { AGENT_AUDIT_LOG: 'off', AGENT_AUDIT_HEAD_DIR: '/var/tmp/heads' };

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    parseWorkerSettings({ ...base, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(WorkerSettingsError);
    return (error as WorkerSettingsError).problems;
  }
  throw new Error('the settings were accepted');
}

describe('worker deployment settings', () => {
  it('leaves a worker unversioned when neither is set (or both are blank)', () => {
    expect(parseWorkerSettings(base).deployment).toBeUndefined();
    expect(parseWorkerSettings({ ...base, AGENT_DEPLOYMENT_NAME: ' ', AGENT_BUILD_ID: '' }).deployment).toBeUndefined();
    expect(describeWorkerSettings(parseWorkerSettings(base))).toContain('AGENT_DEPLOYMENT_NAME: unset (an unversioned worker)');
  });

  it('reads both, trimmed, and the banner says which deployment and build the worker serves', () => {
    const settings = parseWorkerSettings({ ...base, AGENT_DEPLOYMENT_NAME: ' agents ', AGENT_BUILD_ID: ' 4f2c9e1 ' });
    expect(settings.deployment).toEqual({ name: 'agents', buildId: '4f2c9e1' });
    expect(describeWorkerSettings(settings)).toContain('AGENT_DEPLOYMENT_NAME: agents (build 4f2c9e1; agentRun PINNED to the build that started it)');
  });

  it('refuses a build id without a deployment name, and the reverse, naming the variable to set', () => {
    const [missingName] = problemsOf({ AGENT_BUILD_ID: 'b1' });
    expect(missingName).toMatch(/^AGENT_BUILD_ID="b1" is set without AGENT_DEPLOYMENT_NAME: .*Set AGENT_DEPLOYMENT_NAME as well/);
    const [missingBuild] = problemsOf({ AGENT_DEPLOYMENT_NAME: 'agents' });
    expect(missingBuild).toMatch(/^AGENT_DEPLOYMENT_NAME="agents" is set without AGENT_BUILD_ID: .*Set AGENT_BUILD_ID as well/);
  });

  it('refuses a deployment name with a dot and values longer than Temporal takes, with the other problems', () => {
    const problems = problemsOf({ AGENT_DEPLOYMENT_NAME: 'my.agents', AGENT_BUILD_ID: 'x'.repeat(256), AGENT_PROMPT_CACHE: '2h' });
    expect(problems).toEqual(expect.arrayContaining([
      'AGENT_PROMPT_CACHE="2h" must be 5m (or on), 1h or off.',
      'AGENT_BUILD_ID is 256 characters long; Temporal takes at most 255.',
      expect.stringMatching(/^AGENT_DEPLOYMENT_NAME="my.agents" contains a dot/),
    ]));
  });

  it('createAgentWorker refuses half a `deployment` option before connecting anything', async () => {
    const env = { ...base, TEMPORAL_ADDRESS: '127.0.0.1:1' };
    await expect(createAgentWorker({ env, agents: [], deployment: { name: '', buildId: 'b1' } })).rejects.toThrow(/deployment\.buildId="b1" is set without deployment\.name/);
    await expect(createAgentWorker({ env, agents: [], deployment: { name: 'agents' } as never })).rejects.toThrow(/deployment\.name="agents" is set without deployment\.buildId/);
  });
});
