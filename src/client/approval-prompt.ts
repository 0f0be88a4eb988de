// The terminal prompt for a run started from the CLI that parks: it shows what the agent wants to do
// and asks the person, then sends the answer as an update so a refusal (someone else decided first)
// is reported instead of lost. Streams are injected so tests can answer it.
import readline from 'node:readline';
import type { WorkflowHandle } from '@temporalio/client';
import type { ApprovalDecision } from '../contract/approval-decision';
import type { PendingQuestion } from '../contract/run-records';
import type { RunStatus } from '../contract/run-status';
import { defaultApprover, queryStatus, renderPendingApproval, renderQuestion, sendDecision, sendReply } from './approval-helpers';
import { DecisionRefusedError } from './errors';
import { terminalSafe } from './terminal-safe';

export interface PromptIO {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Recorded as the decision's approver; "always"/"never" are remembered under this name. */
  approver?: string;
}

export interface PromptedDecision {
  callId: string;
  decision: ApprovalDecision['decision'];
  applied: boolean;
  message: string;
}

const ANSWERS: Record<string, ApprovalDecision['decision']> = {
  y: 'approve',
  yes: 'approve',
  n: 'reject',
  no: 'reject',
  a: 'approve_always',
  always: 'approve_always',
  never: 'reject_always',
};

/** Reads lines one at a time from one readline interface, so lines typed ahead are not lost. */
function lineReader(io: PromptIO) {
  const rl = readline.createInterface({ input: io.input, terminal: false });
  const buffered: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let closed = false;
  rl.on('line', (line) => (waiting.length > 0 ? waiting.shift()!(line) : buffered.push(line)));
  rl.on('close', () => {
    closed = true;
    for (const resolve of waiting.splice(0)) resolve(undefined);
  });
  return {
    /** The next line, or undefined once the input has ended. */
    ask(question: string): Promise<string | undefined> {
      io.output.write(question);
      if (buffered.length > 0) return Promise.resolve(buffered.shift());
      if (closed) return Promise.resolve(undefined);
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: () => rl.close(),
  };
}

/**
 * Asks about every call the run waits on, one at a time, and sends each answer. Before each question
 * the status is read again: an "always" settles the other calls of that tool, and another person may
 * have decided meanwhile. Ends early, leaving the rest parked, if the input ends.
 */
export async function promptForApprovals(handle: WorkflowHandle, status: RunStatus, io: PromptIO): Promise<PromptedDecision[]> {
  const reader = lineReader(io);
  const approver = io.approver ?? defaultApprover();
  const made: PromptedDecision[] = [];
  const asked = new Set<string>();
  try {
    let current = status;
    for (;;) {
      const next = current.pendingApprovals.find((p) => !asked.has(p.callId));
      if (!next) return made;
      asked.add(next.callId);
      io.output.write(`\n${renderPendingApproval(next)}\n`);
      let decision: ApprovalDecision['decision'] | undefined;
      while (!decision) {
        const answer = await reader.ask('Approve? [y/n/always/never]: ');
        if (answer === undefined) return made;
        decision = ANSWERS[answer.trim().toLowerCase()];
        if (!decision) io.output.write('Please answer y, n, always or never.\n');
      }
      try {
        const outcome = await sendDecision(handle, { callId: next.callId, decision, approver }, next);
        made.push({ callId: next.callId, decision, ...outcome });
        io.output.write(`✔ ${terminalSafe(outcome.message)}\n`);
      } catch (error) {
        if (!(error instanceof DecisionRefusedError)) throw error;
        made.push({ callId: next.callId, decision, applied: false, message: error.message });
        io.output.write(`✖ ${terminalSafe(error.message)}\n`);
      }
      current = await queryStatus(handle);
    }
  } finally {
    reader.close();
  }
}

/** Shows the agent's question and sends the person's answer as the tool's result. Undefined if the input ends. */
export async function promptForReply(
  handle: WorkflowHandle,
  question: Pick<PendingQuestion, 'question' | 'context'>,
  io: PromptIO,
): Promise<{ applied: boolean; message: string } | undefined> {
  const reader = lineReader(io);
  try {
    io.output.write(`\n${renderQuestion(question)}\n`);
    for (;;) {
      const answer = await reader.ask('Your reply: ');
      if (answer === undefined) return undefined;
      if (!answer.trim()) continue;
      try {
        const outcome = await sendReply(handle, { text: answer.trim(), sender: io.approver ?? defaultApprover() });
        io.output.write(`✔ ${terminalSafe(outcome.message)}\n`);
        return outcome;
      } catch (error) {
        if (!(error instanceof DecisionRefusedError)) throw error;
        io.output.write(`✖ ${terminalSafe(error.message)}\n`);
        return { applied: false, message: error.message };
      }
    }
  } finally {
    reader.close();
  }
}
