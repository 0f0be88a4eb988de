import type { Task, TaskStatus } from '../../contract/control-tools';
import type { TaskProgress } from '../../contract/run-status';

export type { TaskProgress };

const MARKS: Record<TaskStatus, string> = {
  completed: '✅',
  in_progress: '🔄',
  pending: '⏳',
  failed: '❌',
  skipped: '⏭️',
};

export function taskProgress(tasks: readonly Task[]): TaskProgress {
  const completed = tasks.filter((t) => t.status === 'completed').length;
  const total = tasks.length;
  const percent = total === 0 ? 0 : Math.round((completed / total) * 100);
  return {
    completed,
    total,
    percent,
    text: total === 0 ? 'No task list yet' : `Progress: ${completed}/${total} tasks (${percent}%)`,
    lines: tasks.map((t) => `${MARKS[t.status]} [${t.id}] ${t.description}${t.notes ? ` - ${t.notes}` : ''}`),
  };
}
