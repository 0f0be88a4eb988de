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
  const icon = ICONS[event.name] ?? '•';
  const run = event.workflowId;
  switch (event.name) {
    case 'agentStarted':
      return `${icon} Agent '${event.agent}' started (${run})`;
    case 'agentEnded':
      return `${icon} Agent '${event.agent}' ended: ${event.data.status} (${run})`;
    case 'toolStarted':
      return `${icon} Tool '${event.data.tool}' started`;
    case 'toolEnded':
      if (event.data.ranBy === 'api') return `${icon} Tool '${event.data.tool}' ${event.data.success ? '✓' : '✗'} (ran by the API)`;
      return `${icon} Tool '${event.data.tool}' ${event.data.success ? '✓' : '✗'} (${event.data.durationMs} ms)`;
    case 'approvalRequested':
      return `${icon} Approval needed for '${event.data.tool}' (${event.data.callId}) in ${run}`;
    case 'approvalDecided':
      return `${icon} '${event.data.tool}' ${event.data.decision}${event.data.approver ? ` by ${event.data.approver}` : ''}`;
    case 'errorOccurred':
      return `${icon} Error: ${event.data.message}`;
    case 'contextCompacted':
      return `${icon} Context compacted (${event.data.messagesBefore} → ${event.data.messagesAfter} messages)`;
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
