/**
 * Named failure types. Each one says what failed and whether retrying can help.
 *
 * Temporal carries failures across the activity/workflow boundary as `ApplicationFailure`s, so the
 * `type` strings below are the contract between activities, the workflow and clients: a client can
 * switch on `failure.cause.type` to tell a bad input from a rejected model request.
 */
export const FailureType = {
  /** The workflow input did not match the `agentRun` schema. Not retryable. */
  InvalidRunInput: 'InvalidRunInput',
  /** The named agent is not in the worker's registry. Not retryable. */
  UnknownAgent: 'UnknownAgent',
  /** The model API refused the request (400/401/403/404/413). Not retryable. */
  ModelRequestRejected: 'ModelRequestRejected',
  /** The model API is overloaded, rate limited or unreachable. Retryable with backoff. */
  ModelUnavailable: 'ModelUnavailable',
  /** The model activity no longer has the conversation the workflow expected; resend it whole. */
  ConversationStoreMiss: 'ConversationStoreMiss',
  /** A run failed for a reason with no more specific type (an activity timed out, a bug). */
  RunFailed: 'RunFailed',
  /** A run state handed to `agentRun` (continue-as-new or resume) has an unknown schema version. */
  UnsupportedStateVersion: 'UnsupportedStateVersion',
} as const;
export type FailureType = (typeof FailureType)[keyof typeof FailureType];

/** An agent definition is malformed; raised while the registry is built, before the worker polls. */
export class AgentDefinitionError extends Error {
  override readonly name = 'AgentDefinitionError';
}

/** A tool definition is malformed (non-object schema, bad name); raised when the tool is built. */
export class ToolDefinitionError extends Error {
  override readonly name = 'ToolDefinitionError';
}

/** A path given to a tool would leave the workspace root. */
export class WorkspaceEscapeError extends Error {
  override readonly name = 'WorkspaceEscapeError';
}

/**
 * The process sandbox the worker was configured for cannot be used (bwrap missing, or its smoke test
 * failed). Raised at worker start, never downgraded to an unsandboxed run: retrying cannot help until
 * the host is fixed or AGENT_SANDBOX=none is chosen knowingly.
 */
export class SandboxUnavailableError extends Error {
  override readonly name = 'SandboxUnavailableError';
}

/** A tool's process could not be started at all (its program is missing, a spawn error). */
export class ProcessStartError extends Error {
  override readonly name = 'ProcessStartError';
}
