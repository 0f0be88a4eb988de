import { reply, text, toolCall, type FakeAnthropic } from './fake-anthropic';
import { uniqueId } from './temporal';

/**
 * A task whose run writes a file (a person must approve it), so it parks with no model call in flight;
 * approved, it completes. Scripted on `fake`; returns the task to start the run with.
 */
export function parkingTask(fake: FakeAnthropic, prefix: string): string {
  const task = uniqueId(prefix);
  fake.script(task, [
    reply(text('Writing the note now.'), toolCall('write_file', { path: 'note.txt', content: 'parked' })),
    reply(toolCall('complete_task', { summary: 'written', status: 'success' })),
  ]);
  return task;
}
