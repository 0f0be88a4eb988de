import { DurableAgentError } from './durable-agent-error';

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

export { DurableAgentError, isDurableAgentError } from './durable-agent-error';

/** An agent definition is malformed; raised while the registry is built, before the worker polls. */
export class AgentDefinitionError extends DurableAgentError {
  override readonly name = 'AgentDefinitionError';
  readonly code = 'AGENT_DEFINITION_INVALID';
  readonly retryable = false;
}

/** A tool definition is malformed (non-object schema, bad name); raised when the tool is built. */
export class ToolDefinitionError extends DurableAgentError {
  override readonly name = 'ToolDefinitionError';
  readonly code = 'TOOL_DEFINITION_INVALID';
  readonly retryable = false;
}

/**
 * A tool's schema was built with a zod of another major version than the one durable-agent runs with
 * (its `zod` peer). Raised when the worker starts, instead of the confusing `instanceof` failure the
 * first model call would meet; the message names the tool and both versions.
 */
export class ZodVersionMismatchError extends DurableAgentError {
  override readonly name = 'ZodVersionMismatchError';
  readonly code = 'ZOD_VERSION_MISMATCH';
  readonly retryable = false;
}

/** A path given to a tool would leave the workspace root. */
export class WorkspaceEscapeError extends DurableAgentError {
  override readonly name = 'WorkspaceEscapeError';
  readonly code = 'WORKSPACE_ESCAPE';
  readonly retryable = false;
}

/**
 * The approver registry (AGENT_APPROVERS_FILE) cannot be used: missing, not JSON, or an entry that is
 * not an Ed25519 public key. Raised when the worker starts, so it never runs with a registry it
 * misread; the message names the file, the entry and what to fix. Not retryable.
 */
export class ApproverRegistryError extends DurableAgentError {
  override readonly name = 'ApproverRegistryError';
  readonly code = 'APPROVER_REGISTRY_INVALID';
  readonly retryable = false;
}

/**
 * The audit log does not end in a valid record, or its `.head` file contradicts it: appending would
 * extend a chain that is already broken, so the writer refuses until a person has looked.
 */
export class AuditLogCorruptError extends DurableAgentError {
  override readonly name = 'AuditLogCorruptError';
  readonly code = 'AUDIT_LOG_CORRUPT';
  readonly retryable = false;
}

/** Another live process holds the audit log's lock file; one file belongs to one worker process. */
export class AuditLogLockedError extends DurableAgentError {
  override readonly name = 'AuditLogLockedError';
  readonly code = 'AUDIT_LOG_LOCKED';
  readonly retryable = true;
}

/**
 * The audit chain takes no more records: it was closed, or an earlier write or fsync failed and the
 * file may end in a partial line. Retrying cannot help until the file is checked and reopened.
 */
export class AuditLogUnavailableError extends DurableAgentError {
  override readonly name = 'AuditLogUnavailableError';
  readonly code = 'AUDIT_LOG_UNAVAILABLE';
  readonly retryable = false;
}

/** A record handed to the audit chain does not match the record schema; nothing was written. */
export class InvalidAuditRecordError extends DurableAgentError {
  override readonly name = 'InvalidAuditRecordError';
  readonly code = 'AUDIT_RECORD_INVALID';
  readonly retryable = false;
}

/** There is no audit log at the path given to the verifier. */
export class AuditLogMissingError extends DurableAgentError {
  override readonly name = 'AuditLogMissingError';
  readonly code = 'AUDIT_LOG_MISSING';
  readonly retryable = false;
}

/**
 * `agentctl audit prove` was given something it cannot prove from: a history file that is missing or
 * not an exported history, the history of another workflow, a chain with a link missing, or a payload
 * it cannot decode. The message names the input and how to export or name the right one.
 */
export class AuditProofInputError extends DurableAgentError {
  override readonly name = 'AuditProofInputError';
  readonly code = 'AUDIT_PROOF_INPUT_INVALID';
  readonly retryable = false;
}

/**
 * The process sandbox the worker was configured for cannot be used (bwrap missing, or its smoke test
 * failed). Raised at worker start, never downgraded to an unsandboxed run: retrying cannot help until
 * the host is fixed or AGENT_SANDBOX=none is chosen knowingly.
 */
export class SandboxUnavailableError extends DurableAgentError {
  override readonly name = 'SandboxUnavailableError';
  readonly code = 'SANDBOX_UNAVAILABLE';
  readonly retryable = false;
}

/** A tool's process could not be started at all (its program is missing, a spawn error). */
export class ProcessStartError extends DurableAgentError {
  override readonly name = 'ProcessStartError';
  readonly code = 'PROCESS_START_FAILED';
  readonly retryable = false;
}

/** `AGENT_CONVERSATION_STORE` names no store this worker knows, or one it cannot use. Raised at worker start. */
export class ConversationStoreConfigError extends DurableAgentError {
  override readonly name = 'ConversationStoreConfigError';
  readonly code = 'CONVERSATION_STORE_CONFIG_INVALID';
  readonly retryable = false;
}

/**
 * The shared conversation store (PostgreSQL) could not be reached or refused a statement. Retryable:
 * the model activity that needed it is retried with backoff until the database answers again.
 */
export class ConversationStoreUnavailableError extends DurableAgentError {
  override readonly name = 'ConversationStoreUnavailableError';
  readonly code = 'CONVERSATION_STORE_UNAVAILABLE';
  readonly retryable = true;
}

/** The audit log (or another worker-side file) was configured inside the workspace, where tools could change it. */
export class AuditLogPlacementError extends DurableAgentError {
  override readonly name = 'AuditLogPlacementError';
  readonly code = 'AUDIT_LOG_PLACEMENT';
  readonly retryable = false;
}

/** A JSON Schema (an MCP tool's input schema, an output schema) that the validator cannot compile. */
export class InvalidJsonSchemaError extends DurableAgentError {
  override readonly name = 'InvalidJsonSchemaError';
  readonly code = 'JSON_SCHEMA_INVALID';
  readonly retryable = false;
}

/**
 * The agent configuration file (AGENT_CONFIG) cannot be used: missing, not YAML/JSON, or an entry
 * that does not fit. Raised at worker start; the message names the file, the path in it and what to fix.
 */
export class AgentConfigError extends DurableAgentError {
  override readonly name = 'AgentConfigError';
  readonly code = 'AGENT_CONFIG_INVALID';
  readonly retryable = false;
}

/**
 * An MCP server of the configuration could not be started or did not answer when the worker started
 * (its tools must be known before the worker polls). The message names the server and what it printed.
 */
export class McpServerStartError extends DurableAgentError {
  override readonly name = 'McpServerStartError';
  readonly code = 'MCP_SERVER_START_FAILED';
  readonly retryable = true;
}

/**
 * The Temporal server could not be reached, by a client or a worker; the message says where it was
 * tried, where that address came from and how to start one or point at another. Retryable: the same
 * call may succeed once the server is up.
 */
export class TemporalUnreachableError extends DurableAgentError {
  override readonly name = 'TemporalUnreachableError';
  readonly code = 'TEMPORAL_UNREACHABLE';
  readonly retryable = true;
}

/**
 * An agent names a Nexus endpoint the Temporal server does not know (issue 36): the worker refuses to
 * start, naming the agent, the tool and the endpoint, so no call is parked for approval and then
 * fails. Not retryable until someone creates the endpoint or fixes the agent.
 */
export class NexusEndpointUnknownError extends DurableAgentError {
  override readonly name = 'NexusEndpointUnknownError';
  readonly code = 'NEXUS_ENDPOINT_UNKNOWN';
  readonly retryable = false;
}
