import { describe, expect, it } from 'vitest';
import { WorkspaceEscapeError } from '../../../../src/contract/errors';
import { bwrapArgs, type BwrapCommand } from '../../../../src/runtime/tools/sandbox/bwrap-args';

const base: BwrapCommand = {
  shell: ['/usr/bin/bash', '-c', 'gate', 'agent-tool', 'echo hi'],
  workspace: '/tmp/ws',
  env: { PATH: '/usr/bin', HOME: '/tmp/ws' },
  network: false,
  hiddenPaths: [],
  system: [{ path: '/usr' }, { path: '/bin', symlinkTo: 'usr/bin' }, { path: '/etc' }],
};

/** The index of the first occurrence of `flag` followed by `value` (for mounts: the destination). */
function indexOf(args: string[], ...sequence: string[]): number {
  return args.findIndex((_, i) => sequence.every((s, j) => args[i + j] === s));
}

describe('bwrapArgs', () => {
  it('unshares everything, drops capabilities, dies with its parent and ends with the shell and command it is given', () => {
    const args = bwrapArgs(base);
    expect(args).toEqual(expect.arrayContaining(['--unshare-all', '--die-with-parent', '--new-session', '--clearenv']));
    expect(indexOf(args, '--cap-drop', 'ALL')).toBeGreaterThanOrEqual(0);
    expect(args).not.toContain('--share-net');
    expect(args.slice(-6)).toEqual(['--', '/usr/bin/bash', '-c', 'gate', 'agent-tool', 'echo hi']);
  });

  it('shares the network only when asked', () => {
    expect(bwrapArgs({ ...base, network: true })).toContain('--share-net');
  });

  it('sets exactly the given environment after clearing it', () => {
    const args = bwrapArgs(base);
    expect(indexOf(args, '--setenv', 'PATH', '/usr/bin')).toBeGreaterThan(args.indexOf('--clearenv'));
    expect(args.filter((a) => a === '--setenv')).toHaveLength(2);
  });

  it('binds system folders read-only and recreates symlinked ones as symlinks', () => {
    const args = bwrapArgs(base);
    expect(indexOf(args, '--ro-bind-try', '/usr', '/usr')).toBeGreaterThanOrEqual(0);
    expect(indexOf(args, '--symlink', 'usr/bin', '/bin')).toBeGreaterThanOrEqual(0);
    expect(indexOf(args, '--ro-bind-try', '/etc', '/etc')).toBeGreaterThanOrEqual(0);
  });

  it('binds the workspace writable after the private /tmp, and hides paths after that', () => {
    const args = bwrapArgs({ ...base, hiddenPaths: ['runs/other', '/tmp/ws/runs/third'] });
    const tmp = indexOf(args, '--tmpfs', '/tmp');
    const workspace = indexOf(args, '--bind', '/tmp/ws', '/tmp/ws');
    expect(tmp).toBeGreaterThanOrEqual(0);
    expect(workspace).toBeGreaterThan(tmp);
    expect(indexOf(args, '--tmpfs', '/tmp/ws/runs/other')).toBeGreaterThan(workspace);
    expect(indexOf(args, '--tmpfs', '/tmp/ws/runs/third')).toBeGreaterThan(workspace);
    expect(indexOf(args, '--chdir', '/tmp/ws')).toBeGreaterThan(workspace);
    // The workspace is the only --bind (writable) mount.
    expect(args.filter((a) => a === '--bind')).toHaveLength(1);
  });

  it('refuses a hidden path outside the workspace, or the workspace itself', () => {
    expect(() => bwrapArgs({ ...base, hiddenPaths: ['../elsewhere'] })).toThrow(WorkspaceEscapeError);
    expect(() => bwrapArgs({ ...base, hiddenPaths: ['/tmp/ws'] })).toThrow(WorkspaceEscapeError);
  });

  it('mounts the workspace read-only, after the hidden paths, when the call may not write', () => {
    const args = bwrapArgs({ ...base, writable: false, hiddenPaths: ['runs'] });
    const remount = indexOf(args, '--remount-ro', '/tmp/ws');
    expect(remount).toBeGreaterThan(indexOf(args, '--tmpfs', '/tmp/ws/runs'));
    expect(indexOf(args, '--remount-ro', '/tmp/ws/runs')).toBeGreaterThan(remount);
    // Protection mounts are pointless on a read-only workspace.
    const protection = { readOnly: ['/tmp/ws/.git', '/tmp/ws/.env'] };
    expect(bwrapArgs({ ...base, writable: false, protection })).not.toContain('/tmp/ws/.git');
  });

  it('keeps protected paths read-only in a writable workspace: each is bound read-only onto itself, after the workspace', () => {
    const protection = { readOnly: ['/tmp/ws/.env', '/tmp/ws/.git'] };
    const args = bwrapArgs({ ...base, protection });
    const workspace = indexOf(args, '--bind', '/tmp/ws', '/tmp/ws');
    expect(indexOf(args, '--ro-bind', '/tmp/ws/.git', '/tmp/ws/.git')).toBeGreaterThan(workspace);
    expect(indexOf(args, '--ro-bind', '/tmp/ws/.env', '/tmp/ws/.env')).toBeGreaterThan(workspace);
    expect(indexOf(args, '--remount-ro', '/tmp/ws')).toBe(-1);
  });

  it('caps the private /tmp when given a size', () => {
    expect(indexOf(bwrapArgs({ ...base, tmpBytes: 1048576 }), '--size', '1048576', '--perms', '1777', '--tmpfs', '/tmp')).toBeGreaterThanOrEqual(0);
  });

  it('as root, makes no user namespace and drops to the given user with setpriv before the shell', () => {
    const args = bwrapArgs({ ...base, runAs: { uid: 65534, gid: 65534, setpriv: '/usr/bin/setpriv' } });
    expect(args).not.toContain('--unshare-all');
    expect(args).toEqual(expect.arrayContaining(['--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts']));
    expect(indexOf(args, '--cap-add', 'CAP_SETUID')).toBeGreaterThan(indexOf(args, '--cap-drop', 'ALL'));
    const shell = args.indexOf('/usr/bin/bash');
    expect(args.slice(args.indexOf('--') + 1, shell)).toEqual([
      '/usr/bin/setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--no-new-privs', '--',
    ]);
    expect(bwrapArgs({ ...base, network: true, runAs: { uid: 1, gid: 1, setpriv: '/usr/bin/setpriv' } })).not.toContain('--unshare-net');
  });
});
