// bin/agentctl.js in a checkout, where src/ sits beside bin/: it runs the TypeScript sources through
// tsx, so a change to the CLI needs no build step. The other CLI tests run the same file beside a dist/
// compiled once per suite run, the installed package's path (support/compiled-agentctl.ts).
import { describe, expect, it } from 'vitest';
import { TEST_AGENTCTL_ENV } from '../support/compiled-agentctl';
import { agentctl, CHECKOUT_AGENTCTL } from './agentctl-process';
import { spawn } from 'node:child_process';

function checkoutAgentctl(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CHECKOUT_AGENTCTL, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('agentctl from a checkout and compiled', () => {
  it('runs the sources through tsx from a checkout, and says the same as the compiled binary the other tests run', async () => {
    const fromSources = await checkoutAgentctl(['--help']);
    expect(fromSources.code).toBe(0);
    expect(fromSources.stdout).toContain('watch         follow a run live');
    const compiled = await agentctl(['--help'], {});
    expect(compiled).toEqual({ code: 0, stdout: fromSources.stdout, stderr: fromSources.stderr });
    // In a suite run the other tests take the compiled one (global-setup.ts sets it).
    if (process.env[TEST_AGENTCTL_ENV]) expect(process.env[TEST_AGENTCTL_ENV]).not.toBe(CHECKOUT_AGENTCTL);
  });

  it('refuses a verb it does not know with the same message and exit code either way', async () => {
    const fromSources = await checkoutAgentctl(['no-such-verb']);
    expect(fromSources.code).not.toBe(0);
    expect(await agentctl(['no-such-verb'], {})).toEqual({ code: fromSources.code, stdout: fromSources.stdout, stderr: fromSources.stderr });
  });
});
