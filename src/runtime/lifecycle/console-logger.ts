import type { LifecycleEvent } from '../../contract/lifecycle-event';
import type { LifecycleHandler } from './lifecycle-handler';

const ICONS: Partial<Record<LifecycleEvent['name'], string>> = {
  agentStarted: '🚀',
  agentEnded: '✅',
  toolStarted: '🔧',
  toolEnded: '🔧',
  approvalRequested: '⚠️',
  approvalDecided: '🗳️',
  errorOccurred: '❌',
  contextCompacted: '🗜️',
  iterationStarted: '↻',
  iterationCompleted: '↻',
};

function time(iso: string): string {
  return iso.slice(11, 23);
}

/** "[14:23:45.123] 🔧 Tool 'shell' ✓": one line per event, as in the Peekaboo seed. */
export function formatEvent(event: LifecycleEvent): string {
  const d = event.data;
  const icon = ICONS[event.name] ?? '•';
  const run = event.workflowId;
  switch (event.name) {
    case 'agentStarted':
      return `${icon} Agent '${event.agent}' started (${run})`;
    case 'agentEnded':
      return `${icon} Agent '${event.agent}' ended: ${String(d.status)} (${run})`;
    case 'toolStarted':
      return `${icon} Tool '${String(d.tool)}' started`;
    case 'toolEnded':
      return `${icon} Tool '${String(d.tool)}' ${d.success ? '✓' : '✗'} (${String(d.durationMs)} ms)`;
    case 'approvalRequested':
      return `${icon} Approval needed for '${String(d.tool)}' (${String(d.callId)}) in ${run}`;
    case 'approvalDecided':
      return `${icon} '${String(d.tool)}' ${String(d.decision)}${d.approver ? ` by ${String(d.approver)}` : ''}`;
    case 'errorOccurred':
      return `${icon} Error: ${String(d.message)}`;
    case 'contextCompacted':
      return `${icon} Context compacted (${String(d.messagesBefore)} → ${String(d.messagesAfter)} messages)`;
    default:
      return `${icon} ${event.name} #${event.iteration}`;
  }
}

export class ConsoleLifecycleLogger implements LifecycleHandler {
  constructor(private readonly options: { verbose?: boolean; includeTimestamps?: boolean; write?: (line: string) => void } = {}) {}

  handle(event: LifecycleEvent): void {
    if (!this.options.verbose && (event.name === 'iterationStarted' || event.name === 'iterationCompleted')) return;
    const stamp = this.options.includeTimestamps === false ? '' : `[${time(event.at)}] `;
    (this.options.write ?? ((line: string) => console.log(line)))(`${stamp}${formatEvent(event)}`);
  }
}
