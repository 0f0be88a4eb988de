import { CompletionSchema, needMoreInformation, SavedSummarySchema, TaskListSchema, completeTask, summarizeAndContinue, updateTasks } from '../../control-tools';
import { describeZodError } from '../../describe-zod-error';
import type { ToolResult } from '../../tools/tool-result';
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
  switch (call.name) {
    case completeTask.name: {
      const parsed = CompletionSchema.safeParse(call.input);
      if (!parsed.success) return finish(invalid(call.name, parsed.error));
      // Kept in state at once, so a completion survives a continue-as-new later in the same turn.
      state.completion = parsed.data;
      return finish({ success: true, shouldContinue: false, output: `Task ended (${parsed.data.status}).` });
    }
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
