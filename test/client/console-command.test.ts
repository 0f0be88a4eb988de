// `agentctl console` as a person runs it: the contract flags, the printed URL and start token, a
// clean stop on Ctrl-C; and `--hash-password` for the users file.
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/console/auth/password-hash';
import { freePort } from '../../scripts/temporal-dev-server';
import { temporalAddress } from '../support/temporal';
import { agentctl, startAgentctl } from './agentctl-process';

describe('agentctl console', () => {
  it('serves the login page on the given host and port, prints the start token, and stops on SIGINT', async () => {
    const cli = startAgentctl(['console', '--port', '0', '--host', '127.0.0.1'], { TEMPORAL_ADDRESS: temporalAddress(), USER: 'dana' });
    try {
      await cli.waitFor(/Press Ctrl-C to stop\./, 60_000);
      const url = /Approval console: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(cli.stdout())![1]!;
      expect(cli.stdout()).toMatch(/Start token \(logs in as dana\): [\w-]{43}\n/);
      const login = await fetch(`${url}login`);
      expect(login.status).toBe(200);
      expect(await login.text()).toContain('Password or start token');
      expect((await fetch(url, { redirect: 'manual' })).status).toBe(303);
    } finally {
      cli.child.kill('SIGINT');
    }
    const { code, stdout } = await cli.done;
    expect(code).toBe(0);
    expect(stdout).toContain('Console stopped.');
  });

  it('listens on the fixed port --port names', async () => {
    const port = await freePort();
    const cli = startAgentctl(['console', '--port', String(port), '--host', '127.0.0.1'], { TEMPORAL_ADDRESS: temporalAddress(), USER: 'dana' });
    try {
      await cli.waitFor(/Press Ctrl-C to stop\./, 60_000);
      expect(cli.stdout()).toContain(`Approval console: http://127.0.0.1:${port}/`);
      expect((await fetch(`http://127.0.0.1:${port}/login`)).status).toBe(200);
    } finally {
      cli.child.kill('SIGINT');
    }
    expect((await cli.done).code).toBe(0);
  });

  it('refuses a port that is not a number', async () => {
    const { code, stderr } = await agentctl(['console', '--port', 'eighty'], { TEMPORAL_ADDRESS: temporalAddress() });
    expect(code).toBe(2);
    expect(stderr).toContain('--port must be a port number (got "eighty")');
  });

  it('--hash-password prints a hash of the password read from stdin', async () => {
    const { code, stdout } = await agentctl(['console', '--hash-password'], {}, 'open sesame\n');
    expect(code).toBe(0);
    expect(await verifyPassword('open sesame', stdout.trim())).toBe(true);
  });
});
