// `agentctl keys create`, run as a real process. It must work with no Temporal server at all, so the
// address points at a port nothing listens on: any attempt to connect would fail the test.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadApproverRegistry } from '../../src/runtime/approvals/approver-registry';
import { agentctl } from './agentctl-process';

const root = mkdtempSync(path.join(tmpdir(), 'keys-command-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const env = (dir: string) => ({ AGENT_KEYS_DIR: dir, TEMPORAL_ADDRESS: '127.0.0.1:1' });

describe('agentctl keys', () => {
  it('create --json makes the key file and prints the registry entry', async () => {
    const dir = path.join(root, 'json');
    const { code, stdout, stderr } = await agentctl(['keys', 'create', 'ana', '--json'], env(dir));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const created = JSON.parse(stdout) as { name: string; privateKeyPath: string; publicKeyPem: string; registryEntry: Record<string, string> };
    expect(created.name).toBe('ana');
    expect(created.privateKeyPath).toBe(path.join(dir, 'ana.pem'));
    expect(created.registryEntry).toEqual({ ana: created.publicKeyPem });
    expect(readFileSync(created.privateKeyPath, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(statSync(created.privateKeyPath).mode & 0o777).toBe(0o600);

    // The printed entry is what the worker's registry loader accepts.
    const registryFile = path.join(root, 'approvers.json');
    writeFileSync(registryFile, JSON.stringify(created.registryEntry));
    expect(loadApproverRegistry(registryFile).ana).toMatch(/^[0-9a-f]{64}$/);
  });

  it('create prints where the private key is and a JSON fragment to paste, and refuses to overwrite it', async () => {
    const dir = path.join(root, 'human');
    const first = await agentctl(['keys', 'create', 'bo'], env(dir));
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Private key: ${path.join(dir, 'bo.pem')} (mode 0600`);
    const fragment = first.stdout.slice(first.stdout.indexOf('{'));
    expect(Object.keys(JSON.parse(fragment) as object)).toEqual(['bo']);

    const again = await agentctl(['keys', 'create', 'bo'], env(dir));
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
    const forced = await agentctl(['keys', 'create', 'bo', '--force'], env(dir));
    expect(forced.code).toBe(0);
  });

  it('gives a usage error for an unknown subcommand or a missing name', async () => {
    const unknown = await agentctl(['keys', 'list'], env(path.join(root, 'usage')));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown keys subcommand "list".*\nUsage: agentctl keys create <name>/);
    const missing = await agentctl(['keys', 'create'], env(path.join(root, 'usage')));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/keys create needs exactly one approver name/);
  });
});
