// `agentctl deploy status` (issue 36, must-have 2): bad flags exit 2 with the usage line before
// anything connects; a deployment the server does not know exits 1 and says so. The builds and their
// run counts are checked on the dev server in test/runtime/worker-setup/worker-versioning.test.ts.
import { describe, expect, it } from 'vitest';
import { agentctl } from '../../client/agentctl-process';
import { temporalAddress, uniqueId } from '../../support/temporal';

describe('agentctl deploy status', () => {
  it('refuses bad flags and arguments with the usage line and exit 2 before it connects', async () => {
    // Nothing listens there: a refusal that reached for the server would say "Cannot reach Temporal".
    const env = { TEMPORAL_ADDRESS: '127.0.0.1:1', AGENT_DEPLOYMENT_NAME: '' };
    const cases: [string[], string][] = [
      [['deploy'], 'deploy needs a subcommand: status'],
      [['deploy', 'rollout'], 'Unknown deploy subcommand "rollout"; the one there is: status'],
      [['deploy', 'status', 'agents'], 'deploy status takes no arguments (got "agents"); name the deployment with --deployment'],
      [['deploy', 'status', '--deployment', 'agents', '--build', 'b1'], 'deploy status does not take --build'],
      [['deploy', 'status', '--deployment'], '--deployment needs a value'],
      [['deploy', 'status'], 'deploy status needs the deployment: --deployment NAME, or AGENT_DEPLOYMENT_NAME as the workers have it'],
    ];
    for (const [argv, message] of cases) {
      const result = await agentctl(argv, env);
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain('Usage: agentctl deploy status [--deployment NAME] [--json]');
      expect(result.stderr).not.toContain('Cannot reach Temporal');
    }
  });

  it('says so, exit 1, for a deployment the server does not know (the name from AGENT_DEPLOYMENT_NAME)', async () => {
    const name = uniqueId('no-such-deployment');
    const result = await agentctl(['deploy', 'status'], { TEMPORAL_ADDRESS: temporalAddress(), AGENT_DEPLOYMENT_NAME: name });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`There is no worker deployment "${name}" in namespace default`);
  });
});
