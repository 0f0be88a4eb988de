// The billable-action estimate bench:history prints: local activities of one workflow task count
// once, activity retries count, patch markers do not.
import { describe, expect, it } from 'vitest';
import { billableActions } from '../../bench/history/history-profile';

const marker = (markerName: string) => ({ markerRecordedEventAttributes: { markerName } });
const taskDone = { workflowTaskCompletedEventAttributes: {} };

describe('billableActions', () => {
  it('counts a start, activity attempts, one action per workflow task of local activities, upserts and signals', () => {
    const { total, byKind } = billableActions([
      { workflowExecutionStartedEventAttributes: {} },
      taskDone,
      marker('core_patch'),
      { upsertWorkflowSearchAttributesEventAttributes: {} },
      { activityTaskScheduledEventAttributes: {} },
      { activityTaskStartedEventAttributes: { attempt: 3 } },
      taskDone,
      marker('core_local_activity'),
      marker('core_local_activity'),
      taskDone,
      marker('core_local_activity'),
      { workflowExecutionSignaledEventAttributes: {} },
      { timerStartedEventAttributes: {} },
    ]);
    expect(byKind).toEqual({
      'workflow start': 1,
      'search attribute upsert': 1,
      activity: 1,
      'activity retry': 2,
      'local activities (per workflow task)': 2,
      signal: 1,
      timer: 1,
    });
    expect(total).toBe(9);
  });
});
