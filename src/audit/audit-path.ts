import * as path from 'node:path';
import { AuditLogPlacementError } from '../errors';

export const DEFAULT_AUDIT_LOG_PATH = '.agent-audit.log';

/** `AGENT_AUDIT_LOG`: a file path (default `./.agent-audit.log`), or `off` to disable the audit log. */
export function auditLogPathFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env.AGENT_AUDIT_LOG?.trim();
  if (configured === 'off') return undefined;
  return path.resolve(configured || DEFAULT_AUDIT_LOG_PATH);
}

/**
 * The audit log must live outside every workspace: a tool that can write there could rewrite it.
 * Refused at worker start, with where it should go instead.
 */
export function assertOutsideWorkspace(file: string, workspaceRoot: string): void {
  const relative = path.relative(workspaceRoot, file);
  const inside = relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  if (inside) {
    throw new AuditLogPlacementError(
      `The audit log ${file} is inside the workspace ${workspaceRoot}, where tools could change it. Set AGENT_AUDIT_LOG to a path outside the workspace.`,
    );
  }
}
