import { readFileSync } from 'node:fs';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { describe, expect, it } from 'vitest';
import { readHistoryJson, withConstantEnums } from '../../src/runtime/history-json';

const fixture = JSON.parse(readFileSync('test/fixtures/histories/10058f7/approve-always.json', 'utf8')) as { events: Record<string, unknown>[] };

const pascal = (value: string, prefix: string) =>
  value.slice(prefix.length + 1).toLowerCase().replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());

/** The same history as older tools wrote it: event types and task-queue kinds in PascalCase. */
function inPascalCase(history: typeof fixture): typeof fixture {
  return {
    ...history,
    events: history.events.map((event) => {
      const copy = structuredClone(event);
      copy.eventType = pascal(String(event.eventType), 'EVENT_TYPE');
      for (const [key, value] of Object.entries(copy)) {
        const queue = key.endsWith('EventAttributes') ? (value as { taskQueue?: { kind?: string } }).taskQueue : undefined;
        if (queue?.kind) queue.kind = pascal(queue.kind, 'TASK_QUEUE_KIND');
      }
      return copy;
    }),
  };
}

describe('history JSON', () => {
  it('rewrites PascalCase enum values to their constant names, as the fallback reader needs', () => {
    const old = inPascalCase(fixture);
    expect(old.events[0]!.eventType).toBe('WorkflowExecutionStarted');
    const fixed = withConstantEnums(old) as typeof fixture;
    expect(fixed.events.map((e) => e.eventType)).toEqual(fixture.events.map((e) => e.eventType));
    expect(withConstantEnums(fixture)).toEqual(fixture);
  });

  it('loads an old PascalCase history to the same events as Temporal’s own reader', () => {
    const old = inPascalCase(fixture);
    expect(historyFromJSON(withConstantEnums(old))).toEqual(historyFromJSON(old));
    expect(readHistoryJson(old)).toEqual(historyFromJSON(fixture));
  });
});
