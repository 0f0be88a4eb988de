import type { NextStep } from './next-step';
import type { RunEvent } from './run-events';
import type { RunState } from './run-state';
import { childWorkflowId } from './on-team';

/**
 * What taking a step starts, as events the workflow applies before it runs the step: a new model call
 * (or another attempt of it), a compaction that calls the summarizer, and each tool call or sub-agent
 * run, so the next step does not start them again meanwhile. The executors only report outcomes.
 */
export function startedEvents(state: RunState, step: NextStep): RunEvent[] {
  switch (step.kind) {
    case 'call_model':
      return [{ type: 'model_call_started' }];
    case 'compact':
      // A plan without a split only cuts oversized outputs: nothing is started, it is done at once.
      return step.plan.split === undefined ? [] : [{ type: 'compaction_started' }];
    case 'run_tools':
      return step.calls.map((call): RunEvent =>
        call.lane === 'child' ? { type: 'child_started', callId: call.id, workflowId: childWorkflowId(state.workflowId, call.id) } : { type: 'tool_started', callId: call.id },
      );
    default:
      return [];
  }
}
