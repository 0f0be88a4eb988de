import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditLogPathFromEnv } from '../../src/audit/audit-path';
import { AuditLogPlacementError } from '../../src/errors';
import { createAgentWorker } from '../../src/worker-setup/create-agent-worker';

const tempDir = () => mkdtemp(path.join(tmpdir(), 'audit-path-'));

describe('auditLogPathFromEnv', () => {
  it('turns the audit log off for AGENT_AUDIT_LOG=off, and otherwise names a file (./.agent-audit.log by default)', () => {
    expect(auditLogPathFromEnv({ AGENT_AUDIT_LOG: 'off' })).toBeUndefined();
    expect(auditLogPathFromEnv({ AGENT_AUDIT_LOG: ' off ' })).toBeUndefined();
    expect(auditLogPathFromEnv({})).toBe(path.resolve('.agent-audit.log'));
    expect(auditLogPathFromEnv({ AGENT_AUDIT_LOG: '/var/log/agent.log' })).toBe('/var/log/agent.log');
  });
});

describe('a worker whose audit log or conversation store is inside the workspace', () => {
  // Nothing listens on port 1: a worker that got as far as connecting would fail differently.
  it('refuses to start, before it connects, when the audit log is inside the workspace', async () => {
    const workspaceRoot = await tempDir();
    const error = await createAgentWorker({
      address: '127.0.0.1:1',
      workspaceRoot,
      auditLog: path.join(workspaceRoot, 'logs', 'audit.log'),
      env: { AGENT_SANDBOX: 'none' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuditLogPlacementError);
    expect((error as Error).message).toMatch(/inside the workspace/);
  });

  it('refuses to start, before it connects, when a dir: conversation store is inside the workspace', async () => {
    const workspaceRoot = await tempDir();
    const error = await createAgentWorker({
      address: '127.0.0.1:1',
      workspaceRoot,
      env: { AGENT_SANDBOX: 'none', AGENT_CONVERSATION_STORE: `dir:${path.join(workspaceRoot, 'conversations')}` },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuditLogPlacementError);
  });
});
