// Where audit logs and their head copies live. Each worker process writes its own log (two writers
// would break one chain), so by default a log is named by host and process id inside one folder, and
// `agentctl audit verify` checks every log of that folder.
import { hostname, homedir } from 'node:os';
import * as path from 'node:path';
import { AuditLogPlacementError } from '../../contract/errors';

/** The folder of per-process logs when AGENT_AUDIT_LOG names no file. */
export const DEFAULT_AUDIT_DIR = '.agent-audit';
export const AUDIT_LOG_ENV = 'AGENT_AUDIT_LOG';
export const AUDIT_DIR_ENV = 'AGENT_AUDIT_DIR';
export const AUDIT_HEAD_DIR_ENV = 'AGENT_AUDIT_HEAD_DIR';

/** A file name part: host names may hold characters a file name should not. */
const safePart = (text: string) => text.replace(/[^A-Za-z0-9._-]/g, '_') || 'host';

/** The folder of per-process logs: AGENT_AUDIT_DIR, default ./.agent-audit. */
export function auditDirFromEnv(env: NodeJS.ProcessEnv): string {
  return path.resolve(env[AUDIT_DIR_ENV]?.trim() || DEFAULT_AUDIT_DIR);
}

/**
 * The log this process writes. `AGENT_AUDIT_LOG=off` disables it; a path names one file (one process
 * only); unset, each process gets `<AGENT_AUDIT_DIR>/<host>-<pid>.log`, so several workers started in
 * one folder each have their own.
 */
export function auditLogPathFromEnv(env: NodeJS.ProcessEnv, pid: number = process.pid): string | undefined {
  const configured = env[AUDIT_LOG_ENV]?.trim();
  if (configured === 'off') return undefined;
  if (configured) return path.resolve(configured);
  return path.join(auditDirFromEnv(env), `${safePart(hostname())}-${pid}.log`);
}

/**
 * The second place every head is written to: AGENT_AUDIT_HEAD_DIR, default
 * `$XDG_STATE_HOME/durable-agent/audit-heads` (`~/.local/state/...`), outside the log's folder. Someone
 * who can cut the log and its `.head` must also reach this folder to go unseen.
 */
export function auditHeadDirFromEnv(env: NodeJS.ProcessEnv): string {
  const configured = env[AUDIT_HEAD_DIR_ENV]?.trim();
  if (configured) return path.resolve(configured);
  const state = env.XDG_STATE_HOME?.trim() || path.join(env.HOME?.trim() || homedir(), '.local', 'state');
  return path.join(state, 'durable-agent', 'audit-heads');
}

const isInside = (child: string, parent: string) => {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/**
 * The audit log must live outside every workspace: a tool that can write there could rewrite it.
 * Refused at worker start, with where it should go instead.
 */
export function assertOutsideWorkspace(file: string, workspaceRoot: string): void {
  if (isInside(file, workspaceRoot)) {
    throw new AuditLogPlacementError(
      `The audit log ${file} is inside the workspace ${workspaceRoot}, where tools could change it. Set AGENT_AUDIT_LOG (or AGENT_AUDIT_DIR) to a path outside the workspace.`,
    );
  }
}

/** The head copies are worth nothing beside the log: whoever cuts the log would delete them too. */
export function assertHeadDirApart(file: string, headDir: string): void {
  if (isInside(headDir, path.dirname(file))) {
    throw new AuditLogPlacementError(
      `The audit head copies (${headDir}) are inside the audit log's folder ${path.dirname(file)}; whoever can cut the log could delete them too. Set ${AUDIT_HEAD_DIR_ENV} to a folder elsewhere.`,
    );
  }
}

/**
 * The head folder for a library caller that names none (tests, scripts): the environment's. The
 * worker and agentctl always name one, from their settings, so this is the one deliberate read of
 * process.env here.
 */
export function defaultHeadDir(): string {
  return auditHeadDirFromEnv(process.env);
}
