import type { Task, TaskStatus } from '../../control-tools';

export interface TaskProgress {
  completed: number;
  total: number;
  percent: number;
  /** "Progress: 3/5 tasks (60%)", as the seeds show it. */
  text: string;
  lines: string[];
}

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
