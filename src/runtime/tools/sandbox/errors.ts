/**
 * Errors of the process sandbox. Each says what was wrong and what to do; a retry of the same call
 * cannot help with any of them.
 */

/** A call cannot run with the permission it was given here (see docs/guides/security.md, fallback modes). */
export class SandboxEnforcementError extends Error {
  override readonly name = 'SandboxEnforcementError';
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

/** The variables tool processes may see (AGENT_TOOL_ENV) name one that loads code. Raised at worker start. */
export class ToolEnvironmentError extends Error {
  override readonly name = 'ToolEnvironmentError';
}
