import type { Completion } from '../../contract/control-tools';

/** What a guardrail looks at: the task before the first model call, the completion, or one tool call. */
export type GuardrailSubject =
  | { on: 'input'; agent: string; task: string }
  | { on: 'output'; agent: string; task: string; completion: Completion }
  | { on: 'tool'; agent: string; task: string; tool: string; input: unknown };

export type GuardrailVerdict = { pass: true } | { pass: false; reason: string };

/** A guardrail function registered on the worker: `createAgentWorker({ guardrails: { name: fn } })`. */
export type GuardrailFunction = (subject: GuardrailSubject) => GuardrailVerdict | Promise<GuardrailVerdict>;

/** A call that would park, as an approval handler sees it. */
export interface ApprovalRequest {
  agent: string;
  task: string;
  tool: string;
  input: unknown;
  /** Why the policy asks. */
  reason: string;
  /** What the model said alongside the call. */
  context?: string;
  /** For a shell call, its simple commands. */
  commands?: string[];
}

export interface ApprovalHandlerVerdict {
  verdict: 'allow' | 'reject' | 'ask';
  reason: string;
}

/** An approval handler registered on the worker: `createAgentWorker({ approvalHandlers: { name: fn } })`. */
export type ApprovalHandlerFunction = (request: ApprovalRequest) => ApprovalHandlerVerdict | Promise<ApprovalHandlerVerdict>;

/** The functions guardrails and approval handlers of agent definitions name. */
export interface JudgeFunctions {
  guardrails: Readonly<Record<string, GuardrailFunction>>;
  approvalHandlers: Readonly<Record<string, ApprovalHandlerFunction>>;
}
