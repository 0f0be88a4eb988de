/**
 * Errors of the process sandbox. Each says what was wrong and what to do; a retry of the same call
 * cannot help with any of them.
 */

/** A call cannot run with the permission it was given here (see docs/guides/security.md, fallback modes). */
export class SandboxEnforcementError extends Error {
  // Typed as a string, so a subclass (WorkspaceTooLargeError) can say its own name.
  override readonly name: string = 'SandboxEnforcementError';
}

/** The user commands should run as (AGENT_SANDBOX_USER) cannot be used. Raised at worker start. */
export class SandboxUserError extends Error {
  override readonly name = 'SandboxUserError';
}

/** No bash where commands run: the sandbox's /usr/bin or /bin. Commands never fall back to /bin/sh. */
export class ShellMissingError extends Error {
  override readonly name = 'ShellMissingError';
}

/** A command's cgroup could not be created or removed, although the worker found it could at start. */
export class CommandCgroupError extends Error {
  override readonly name = 'CommandCgroupError';
}

/**
 * The workspace holds more entries than the worker walks before a command (AGENT_SCAN_MAX_ENTRIES).
 * A call that a rule let write is refused: without the whole walk, the sandbox cannot keep every
 * protected path read-only. A SandboxEnforcementError, so the shell tool tells the model as it is.
 */
export class WorkspaceTooLargeError extends SandboxEnforcementError {
  override readonly name = 'WorkspaceTooLargeError';
  constructor(
    readonly workspace: string,
    readonly maxEntries: number,
  ) {
    super(
      `The workspace has more than ${maxEntries.toLocaleString('en-US')} entries (files, folders and links), so this command was not run. ` +
        'Before a command that may write and that no person approved, the worker walks the whole workspace to keep protected paths ' +
        `(.git/config, .envrc, ...) read-only, and it stops after AGENT_SCAN_MAX_ENTRIES (${maxEntries}) entries so that one large workspace ` +
        'cannot stall the worker. To go on: run commands that only read (they need no walk), ask a person to approve this command or to ' +
        'remove what the workspace does not need (build output, dependency folders, generated files), or ask the operator to raise ' +
        'AGENT_SCAN_MAX_ENTRIES.',
    );
  }
}

/**
 * The walk before or after a command could not read a folder of the workspace (not one that is
 * merely gone): it cannot tell which protected paths lie there, so the call fails rather than run,
 * or report, unchecked. A command made a folder unreadable to a worker that is not root, say.
 */
export class WorkspaceUnreadableError extends SandboxEnforcementError {
  override readonly name = 'WorkspaceUnreadableError';
  constructor(
    readonly folder: string,
    readonly code: string,
  ) {
    super(
      `The worker could not read the folder ${folder} in the workspace (${code}), so it cannot check it for protected paths ` +
        '(.git/config, .envrc, ...). A command a rule let write does not run, and one that ran has its result withheld, until ' +
        'the folder is readable to the worker again: make it readable (chmod), or ask a person to approve the call.',
    );
  }
}

/** The variables tool processes may see (AGENT_TOOL_ENV) name one that loads code. Raised at worker start. */
export class ToolEnvironmentError extends Error {
  override readonly name = 'ToolEnvironmentError';
}
