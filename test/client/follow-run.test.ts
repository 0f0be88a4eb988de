import { describe, expect, it } from 'vitest';
import { RunPrinter } from '../../src/client/follow-run';
import type { ToolCallRecord } from '../../src/contract/run-records';
import { runStatus } from '../support/status-factory';
import type { RunStatus } from '../../src/contract/run-status';

function status(iteration: number, recentToolCalls: ToolCallRecord[], extra: Partial<RunStatus> = {}): RunStatus {
  return runStatus({ iteration, recentToolCalls, ...extra });
}

const call = (iteration: number, callId: string, tool: string, outcome: ToolCallRecord['outcome'] = 'success'): ToolCallRecord => ({
  iteration,
  callId,
  tool,
  summary: `${tool}: x`,
  outcome,
  durationMs: outcome === 'success' ? 5 : undefined,
});

describe('RunPrinter', () => {
  it('prints each new step once, under the header of its iteration, even when a poll sees several', () => {
    const lines: string[] = [];
    const printer = new RunPrinter((l) => lines.push(l));
    printer.update(status(1, []));
    const tasks = [{ id: '1', description: 'Look', status: 'in_progress' as const }];
    // One poll that saw iteration 1's calls and task list, a decision and iteration 2's call.
    printer.update(
      status(2, [call(1, 'u', 'update_tasks'), call(1, 'a', 'list_files'), call(2, 'w', 'write_file', 'waiting'), call(2, 'w', 'write_file')], {
        tasks,
        decisions: [{ callId: 'w', tool: 'write_file', decision: 'approve', approver: 'alice', decidedAt: '', via: 'update' }],
      }),
    );
    printer.update(status(2, [call(1, 'a', 'list_files'), call(2, 'w', 'write_file')], { tasks }));
    expect(lines).toEqual([
      '── Iteration 1/10',
      '  ✓ list_files: x (5 ms)',
      '  Progress: 0/1 tasks (0%)',
      '      🔄 [1] Look',
      '── Iteration 2/10',
      '  👍 write_file approved by alice',
      '  ✓ write_file: x (5 ms)',
    ]);
  });

  it('starts a run already under way at its present', () => {
    const lines: string[] = [];
    new RunPrinter((l) => lines.push(l)).update(status(7, [call(6, 'a', 'shell'), call(7, 'b', 'shell')]));
    expect(lines).toEqual(['… 5 earlier iteration(s)', '── Iteration 6/10', '  ✓ shell: x (5 ms)', '── Iteration 7/10', '  ✓ shell: x (5 ms)']);
  });
});
