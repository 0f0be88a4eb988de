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
  /** An update's decision could not be applied (an edit that fails the tool's schema, a refused decision of a batch); nothing changed. */
  DecisionRefused: 'DecisionRefused',
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

/**
 * A tool's schema was built with a zod of another major version than the one durable-agent runs with
 * (its `zod` peer). Raised when the worker starts, instead of the confusing `instanceof` failure the
 * first model call would meet; the message names the tool and both versions.
 */
export class ZodVersionMismatchError extends Error {
  override readonly name = 'ZodVersionMismatchError';
}

/** A path given to a tool would leave the workspace root. */
export class WorkspaceEscapeError extends Error {
  override readonly name = 'WorkspaceEscapeError';
}

/**
 * The approver registry (AGENT_APPROVERS_FILE) cannot be used: missing, not JSON, or an entry that is
 * not an Ed25519 public key. Raised when the worker starts, so it never runs with a registry it
 * misread; the message names the file, the entry and what to fix. Not retryable.
 */
export class ApproverRegistryError extends Error {
  override readonly name = 'ApproverRegistryError';
}

/**
 * The audit log does not end in a valid record, or its `.head` file contradicts it: appending would
 * extend a chain that is already broken, so the writer refuses until a person has looked.
 */
export class AuditLogCorruptError extends Error {
  override readonly name = 'AuditLogCorruptError';
}

/** Another live process holds the audit log's lock file; one file belongs to one worker process. */
export class AuditLogLockedError extends Error {
  override readonly name = 'AuditLogLockedError';
}

/**
 * The audit chain takes no more records: it was closed, or an earlier write or fsync failed and the
 * file may end in a partial line. Retrying cannot help until the file is checked and reopened.
 */
export class AuditLogUnavailableError extends Error {
  override readonly name = 'AuditLogUnavailableError';
}

/** A record handed to the audit chain does not match the record schema; nothing was written. */
export class InvalidAuditRecordError extends Error {
  override readonly name = 'InvalidAuditRecordError';
}

/** There is no audit log at the path given to the verifier. */
export class AuditLogMissingError extends Error {
  override readonly name = 'AuditLogMissingError';
}

/**
 * `agentctl audit prove` was given something it cannot prove from: a history file that is missing or
 * not an exported history, the history of another workflow, a chain with a link missing, or a payload
 * it cannot decode. The message names the input and how to export or name the right one.
 */
export class AuditProofInputError extends Error {
  override readonly name = 'AuditProofInputError';
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

/** `AGENT_CONVERSATION_STORE` names no store this worker knows, or one it cannot use. Raised at worker start. */
export class ConversationStoreConfigError extends Error {
  override readonly name = 'ConversationStoreConfigError';
}

/**
 * The shared conversation store (PostgreSQL) could not be reached or refused a statement. Retryable:
 * the model activity that needed it is retried with backoff until the database answers again.
 */
export class ConversationStoreUnavailableError extends Error {
  override readonly name = 'ConversationStoreUnavailableError';
}

/** The audit log (or another worker-side file) was configured inside the workspace, where tools could change it. */
export class AuditLogPlacementError extends Error {
  override readonly name = 'AuditLogPlacementError';
}

/** A JSON Schema (an MCP tool's input schema, an output schema) that the validator cannot compile. */
export class InvalidJsonSchemaError extends Error {
  override readonly name = 'InvalidJsonSchemaError';
}

/**
 * The agent configuration file (AGENT_CONFIG) cannot be used: missing, not YAML/JSON, or an entry
 * that does not fit. Raised at worker start; the message names the file, the path in it and what to fix.
 */
export class AgentConfigError extends Error {
  override readonly name = 'AgentConfigError';
}

/**
 * An MCP server of the configuration could not be started or did not answer when the worker started
 * (its tools must be known before the worker polls). The message names the server and what it printed.
 */
export class McpServerStartError extends Error {
  override readonly name = 'McpServerStartError';
}
