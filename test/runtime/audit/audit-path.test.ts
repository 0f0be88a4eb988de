import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostname } from 'node:os';
import { assertHeadDirApart, auditHeadDirFromEnv, auditLogPathFromEnv } from '../../../src/runtime/audit/audit-path';
import { AuditLogPlacementError } from '../../../src/contract/errors';
import { createAgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';

const tempDir = () => mkdtemp(path.join(tmpdir(), 'audit-path-'));

describe('auditLogPathFromEnv', () => {
  it('turns the audit log off for AGENT_AUDIT_LOG=off, names that file when set, and otherwise gives each process its own log', () => {
    expect(auditLogPathFromEnv({ AGENT_AUDIT_LOG: 'off' })).toBeUndefined();
    expect(auditLogPathFromEnv({ AGENT_AUDIT_LOG: ' off ' })).toBeUndefined();
    expect(auditLogPathFromEnv({ AGENT_AUDIT_LOG: '/var/log/agent.log' })).toBe('/var/log/agent.log');
    // By host and process id, in ./.agent-audit or AGENT_AUDIT_DIR: two workers in one folder never share a file.
    const host = hostname().replace(/[^A-Za-z0-9._-]/g, '_');
    expect(auditLogPathFromEnv({}, 4242)).toBe(path.resolve('.agent-audit', `${host}-4242.log`));
    expect(auditLogPathFromEnv({}, 4243)).not.toBe(auditLogPathFromEnv({}, 4242));
    expect(auditLogPathFromEnv({ AGENT_AUDIT_DIR: '/var/log/agents' }, 7)).toBe(`/var/log/agents/${host}-7.log`);
  });

  it('keeps the head copies outside the log folder: AGENT_AUDIT_HEAD_DIR, or the user state folder', () => {
    expect(auditHeadDirFromEnv({ AGENT_AUDIT_HEAD_DIR: '/srv/heads' })).toBe('/srv/heads');
    expect(auditHeadDirFromEnv({ HOME: '/home/op' })).toBe('/home/op/.local/state/durable-agent/audit-heads');
    expect(auditHeadDirFromEnv({ HOME: '/home/op', XDG_STATE_HOME: '/state' })).toBe('/state/durable-agent/audit-heads');
    expect(() => assertHeadDirApart('/var/log/agents/a.log', '/var/log/agents/heads')).toThrow(AuditLogPlacementError);
    expect(() => assertHeadDirApart('/var/log/agents/a.log', '/var/lib/heads')).not.toThrow();
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
      env: { ANTHROPIC_API_KEY: 'test', AGENT_SANDBOX: 'none' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuditLogPlacementError);
    expect((error as Error).message).toMatch(/inside the workspace/);
  });

  it('refuses to start, before it connects, when a dir: conversation store is inside the workspace', async () => {
    const workspaceRoot = await tempDir();
    const error = await createAgentWorker({
      address: '127.0.0.1:1',
      workspaceRoot,
      env: { ANTHROPIC_API_KEY: 'test', AGENT_SANDBOX: 'none', AGENT_CONVERSATION_STORE: `dir:${path.join(workspaceRoot, 'conversations')}` },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuditLogPlacementError);
  });
});
