// The client side of the drill: a Temporal client as users get it, whose gRPC retries are counted,
// and the drill's own retry loop around each call, which records every error it was given. A call
// the server cannot serve during an outage must end in an error that says what failed; the caller
// retries it, and the drill keeps both counts.
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { approvalSignal, statusQuery } from '../../../src/contract/agent-run-api';
import { AgentClient } from '../../../src/client/agent-client';
import { DecisionRefusedError } from '../../../src/client/errors';

export interface GrpcRetry {
  at: number;
  /** The gRPC status code of the failed attempt (14: UNAVAILABLE). */
  code: number;
  details: string;
}

export interface DrillClients {
  /** The client as users get it: the SDK's default gRPC retries (about 20 s), each one noted in `grpcRetries`. */
  client: Client;
  /** The same without the SDK's retries: every failed call reaches the caller, who sees what the server said. */
  bareClient: Client;
  grpcRetries: GrpcRetry[];
  close(): Promise<void>;
}

/**
 * The drill's two clients. The default one shows what a user's client rides out on its own; the
 * bare one shows the errors underneath, which the drill's own loop then retries and counts.
 */
export async function drillClients(address: string, namespace: string): Promise<DrillClients> {
  const grpcRetries: GrpcRetry[] = [];
  const defaults = defaultGrpcRetryOptions();
  const retry = makeGrpcRetryInterceptor({
    delayFunction: defaults.delayFunction,
    retryableDecider(attempt, status) {
      const again = defaults.retryableDecider(attempt, status);
      if (again) grpcRetries.push({ at: Date.now(), code: status.code, details: status.details });
      return again;
    },
  });
  const connection = await Connection.connect({ address, interceptors: [retry] });
  const bare = await Connection.connect({ address, interceptors: [] });
  return {
    client: new Client({ connection, namespace }),
    bareClient: new Client({ connection: bare, namespace }),
    grpcRetries,
    close: async () => {
      await connection.close();
      await bare.close();
    },
  };
}

export interface CallError {
  at: number;
  /** The error's class name, e.g. ServiceError, NoWorkerAnsweredError. */
  name: string;
  message: string;
}

export interface Retried<T> {
  value: T;
  /** Calls made, the successful one included. */
  attempts: number;
  errors: CallError[];
}

/**
 * Errors a person (or a program) could act on: a named class, saying what failed and why, which
 * for a call the server could not serve means its gRPC status (UNAVAILABLE, ...).
 */
export function isClearError(error: CallError): boolean {
  if (error.name === 'Error' || error.message.trim().length < 20) return false;
  return error.name !== 'ServiceError' || /\b\d+ [A-Z_]{4,}: /.test(error.message);
}

/** The error's class and message, with the messages of what caused it (a ServiceError wraps the gRPC status). */
export function describeError(error: unknown, at = Date.now()): CallError {
  if (!(error instanceof Error)) return { at, name: typeof error, message: String(error) };
  const causes: string[] = [];
  for (let cause = error.cause; cause instanceof Error && causes.length < 3; cause = cause.cause) causes.push(cause.message.split('\n')[0]!);
  return { at, name: error.name, message: [error.message.split('\n')[0]!, ...causes].join(' ← ') };
}

/**
 * Calls `call` until it succeeds, one second apart, for up to `withinMs`; `stop` may end the loop
 * on an error that retrying cannot fix (it is then thrown).
 */
export async function retrying<T>(call: () => Promise<T>, options: { withinMs: number; stop?: (error: unknown) => boolean }): Promise<Retried<T>> {
  const deadline = Date.now() + options.withinMs;
  const errors: CallError[] = [];
  for (let attempts = 1; ; attempts++) {
    try {
      return { value: await call(), attempts, errors };
    } catch (error) {
      errors.push(describeError(error));
      if (options.stop?.(error) || Date.now() >= deadline) throw Object.assign(error as Error, { drillErrors: errors });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

export type ApprovalRoute = 'signal' | 'update';

export interface ApprovalDelivery {
  workflowId: string;
  via: ApprovalRoute;
  /** Whether the client retried failed gRPC calls itself (the SDK's default) or left every retry to the drill. */
  sdkRetries: boolean;
  sentAt: number;
  /** When the call that delivered it returned. */
  deliveredAt: number;
  attempts: number;
  errors: CallError[];
  /** An update whose earlier attempt failed, yet was applied: the retry was refused as already decided. */
  appliedByAnEarlierAttempt: boolean;
}

const DECIDED = { callId: 'toolu_0_0', decision: 'approve', approver: 'drill' } as const;

/**
 * Approves a run's parked call as `agentctl approve` does: by the `decideApproval` update through
 * the client library (the caller learns whether it was applied), or by the approval signal
 * (`--signal`: stored by the server, applied when the run next runs). Retried until delivered.
 */
export async function deliverApproval(
  client: Client,
  options: { taskQueue: string; workflowId: string; via: ApprovalRoute; sdkRetries: boolean; withinMs: number },
): Promise<ApprovalDelivery> {
  const { via, withinMs } = options;
  const sentAt = Date.now();
  const run = new AgentClient({ client, taskQueue: options.taskQueue }).attach(options.workflowId);
  const handle = run.temporal;
  let appliedByAnEarlierAttempt = false;
  const send = async () => {
    if (via === 'signal') return handle.signal(approvalSignal, { ...DECIDED });
    try {
      await run.approve({ callId: DECIDED.callId, approver: DECIDED.approver });
    } catch (error) {
      // A retry of an update whose first attempt was applied after all finds the call decided.
      if (!(error instanceof DecisionRefusedError)) throw error;
      const decided = (await handle.query(statusQuery)).decisions.some((d) => d.callId === DECIDED.callId && d.approver === DECIDED.approver);
      if (!decided) throw error;
      appliedByAnEarlierAttempt = true;
    }
  };
  const { attempts, errors } = await retrying(send, {
    withinMs,
    // A refusal of a first attempt is the run's answer, not an outage: retrying cannot change it.
    stop: (error) => error instanceof DecisionRefusedError,
  });
  return { workflowId: handle.workflowId, via, sdkRetries: options.sdkRetries, sentAt, deliveredAt: Date.now(), attempts, errors, appliedByAnEarlierAttempt };
}
