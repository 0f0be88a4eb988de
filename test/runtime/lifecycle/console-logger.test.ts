import { describe, expect, it } from 'vitest';
import { ConsoleLifecycleLogger } from '../../../src/runtime/lifecycle/console-logger';
import type { LifecycleEvent, LifecycleEventName } from '../../../src/contract/lifecycle-event';

// Cast: each test gives only the fields the line reads.
const event = (name: LifecycleEventName, data: Record<string, unknown> = {}, iteration = 1): LifecycleEvent =>
  ({
    name,
    at: '2026-11-23T14:23:45.123Z',
    workflowId: 'agent-general-1',
    runId: 'r1',
    agent: 'general',
    iteration,
    key: `agent-general-1/${name}/${iteration}`,
    data,
  }) as LifecycleEvent;

const run: LifecycleEvent[] = [
  event('agentStarted'),
  event('iterationStarted'),
  event('toolStarted', { tool: 'list_files' }),
  event('toolEnded', { tool: 'list_files', success: true, durationMs: 14 }),
  event('approvalRequested', { tool: 'write_file', callId: 'toolu_01XYZ' }),
  event('approvalDecided', { tool: 'write_file', decision: 'approve', approver: 'alice' }),
  event('iterationCompleted'),
  event('agentEnded', { status: 'completed' }),
];

describe('ConsoleLifecycleLogger', () => {
  it('prints one line per event, with a timestamp, leaving out iteration events unless verbose', () => {
    const lines: string[] = [];
    const logger = new ConsoleLifecycleLogger({ write: (line) => lines.push(line) });
    for (const e of run) logger.handle(e);
    expect(lines).toEqual([
      "[14:23:45.123] 🚀 Agent 'general' started (agent-general-1)",
      "[14:23:45.123] 🔧 Tool 'list_files' started",
      "[14:23:45.123] 🔧 Tool 'list_files' ✓ (14 ms)",
      "[14:23:45.123] ⚠️ Approval needed for 'write_file' (toolu_01XYZ) in agent-general-1",
      "[14:23:45.123] 🗳️ 'write_file' approve by alice",
      "[14:23:45.123] ✅ Agent 'general' ended: completed (agent-general-1)",
    ]);
    for (const line of lines) expect(line).not.toContain('\n');

    const verbose: string[] = [];
    const chatty = new ConsoleLifecycleLogger({ verbose: true, write: (line) => verbose.push(line) });
    for (const e of run) chatty.handle(e);
    expect(verbose).toHaveLength(run.length);
  });
});
