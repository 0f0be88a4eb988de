import type { SavedSummary, Task } from '../../contract/control-tools';
import type { ResumeContext } from '../../contract/run-input';
import { taskProgress } from './task-progress';

/**
 * The text that keeps what must never be lost in front of the model: the saved key points, the task
 * list and the summary of turns compacted away. It is rebuilt into the first user message at every
 * compaction and at resume, so it survives both.
 */
export function renderMemory(args: { tasks: Task[]; savedSummaries: SavedSummary[]; conversationSummary?: string }): string {
  const parts: string[] = [];
  if (args.conversationSummary) parts.push(`## Summary of earlier work\n${args.conversationSummary}`);
  if (args.savedSummaries.length > 0) {
    const points = args.savedSummaries.flatMap((s) => s.keyPoints).map((p) => `- ${p}`);
    const latest = args.savedSummaries[args.savedSummaries.length - 1];
    const next = (latest?.nextSteps ?? []).map((s) => `- ${s}`);
    parts.push(`## Key points you saved\n${points.join('\n')}${next.length > 0 ? `\nNext steps you planned:\n${next.join('\n')}` : ''}`);
  }
  if (args.tasks.length > 0) {
    const progress = taskProgress(args.tasks);
    parts.push(`## Task list\n${progress.text}\n${progress.lines.join('\n')}`);
  }
  return parts.join('\n\n');
}

export function renderCarriedContext(resume: ResumeContext): string {
  const memory = renderMemory(resume);
  return [
    `## This run continues an earlier run (${resume.fromWorkflowId})`,
    resume.previousOutcome,
    memory,
    'Pick up where it stopped; do not redo completed tasks.',
  ]
    .filter((s) => s.length > 0)
    .join('\n\n');
}
