import {
  completionTools,
  isCompletionToolName,
  needMoreInformation,
  SavedSummarySchema,
  TaskListSchema,
  summarizeAndContinue,
  updateTasks,
} from '../../contract/control-tools';
import { describeZodError } from '../../contract/describe-zod-error';
import type { ToolResult } from '../../contract/tool-result';
import { recordCall, toBlock } from './call-records';
import { pushBounded, StateLimits, type RunState, type TurnCall } from './run-state';
import { taskProgress } from './task-progress';
import type { TransitionContext } from './transition-context';
import { TEAM_TOOLS } from './on-team';

const invalid = (tool: string, error: Parameters<typeof describeZodError>[0]): ToolResult => ({
  success: false,
  shouldContinue: true,
  output: `Invalid arguments for ${tool}:\n${describeZodError(error)}`,
});

const invalidOutput = (tool: string, problems = ''): ToolResult => ({
  success: false,
  shouldContinue: true,
  output:
    `The task is not complete yet: "output" does not match the result schema this run requires.\n${problems}\n` +
    `Fix the output and call ${tool} again.`,
});

/**
 * Handles a control tool when the turn reaches it: deterministic, inside the workflow. Returns false
 * when the call has to wait (a question for the user), true when it has its result.
 */
export function onControlTool(state: RunState, call: TurnCall, ctx: TransitionContext): boolean {
  const finish = (result: ToolResult) => {
    call.result = toBlock(call.id, result);
    recordCall(state, { iteration: state.turn!.iteration, callId: call.id, tool: call.name, input: call.input, outcome: result.success ? 'success' : 'error' });
    return true;
  };
  // delegate_task and handoff need the outside world: the workflow starts them (see next-step.ts).
  if (TEAM_TOOLS.has(call.name)) return false;
  if (isCompletionToolName(call.name)) {
    const mapped = completionTools[call.name].toCompletion(call.input);
    if (!mapped.success) return finish(invalid(call.name, mapped.error));
    // The model activity checked `output` against the run's schema; an invalid one does not end the run.
    if (call.outputCheck && !call.outputCheck.valid) return finish(invalidOutput(call.name, call.outputCheck.problems));
    // Kept in state at once, so a completion survives a continue-as-new later in the same turn.
    state.completion = mapped.completion;
    if (call.outputCheck?.valid) state.output = (call.input as { output?: unknown }).output;
    return finish({ success: true, shouldContinue: false, output: `Task ended (${mapped.completion.status}).` });
  }
  switch (call.name) {
    case needMoreInformation.name: {
      const parsed = needMoreInformation.inputSchema.safeParse(call.input);
      if (!parsed.success) return finish(invalid(call.name, parsed.error));
      state.pendingQuestion ??= { callId: call.id, question: parsed.data.question, context: parsed.data.context, askedAt: ctx.at };
      return false;
    }
    case updateTasks.name: {
      const parsed = TaskListSchema.safeParse(call.input);
      if (!parsed.success) return finish(invalid(call.name, parsed.error));
      if (new Set(parsed.data.tasks.map((t) => t.id)).size !== parsed.data.tasks.length) {
        return finish({ success: false, shouldContinue: true, output: 'Task ids must be unique.' });
      }
      state.tasks = parsed.data.tasks;
      return finish({ success: true, shouldContinue: true, output: taskProgress(state.tasks).text });
    }
    case summarizeAndContinue.name: {
      const parsed = SavedSummarySchema.safeParse(call.input);
      if (!parsed.success) return finish(invalid(call.name, parsed.error));
      // Bounded: the oldest saved summaries give way, so a run that saves every turn cannot grow its checkpoint forever.
      pushBounded(state.savedSummaries, parsed.data, StateLimits.savedSummaries);
      const focus = parsed.data.nextSteps.join(', ') || 'the task';
      return finish({ success: true, shouldContinue: true, output: `Summary saved; it is kept for the rest of the run. Continuing with: ${focus}` });
    }
    default:
      return finish({ success: false, shouldContinue: true, output: `Unknown control tool ${call.name}` });
  }
}
