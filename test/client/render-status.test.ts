import { describe, expect, it } from 'vitest';
import { listPendingCalls, renderPendingApproval, renderQuestion } from '../../src/client/approval-helpers';
import { renderDecision, renderOutcome, renderProgress, renderStatus, renderToolCall } from '../../src/client/render-status';
import { runStatus } from '../support/status-factory';
import type { RunStatus } from '../../src/contract/run-status';
import { taskProgress } from '../../src/core/machine/task-progress';
import type { Task } from '../../src/contract/control-tools';

const TASKS: Task[] = [
  { id: '1', description: 'Find sources', status: 'completed' },
  { id: '2', description: 'Download', status: 'completed' },
  { id: '3', description: 'Extract', status: 'completed' },
  { id: '4', description: 'Summarize', status: 'in_progress' },
  { id: '5', description: 'Outline', status: 'pending', notes: 'waiting' },
];

const usage = { inputTokens: 1234, outputTokens: 56, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };

function status(overrides: Partial<RunStatus> = {}): RunStatus {
  return runStatus({ task: 'Write notes', user: 'alice', iteration: 2, maxIterations: 40, usage, ...overrides });
}

describe('renderProgress', () => {
  it('prints the seeds\' progress line and one line per task with its mark', () => {
    expect(renderProgress(TASKS)).toEqual([
      'Progress: 3/5 tasks (60%)',
      '  ✅ [1] Find sources',
      '  ✅ [2] Download',
      '  ✅ [3] Extract',
      '  🔄 [4] Summarize',
      '  ⏳ [5] Outline - waiting',
    ]);
    expect(renderProgress([])).toEqual([]);
  });
});

describe('renderToolCall', () => {
  it('shows the outcome mark, the call and its timing', () => {
    expect(renderToolCall({ iteration: 1, callId: 'a', tool: 'shell', summary: 'shell: ls -la', outcome: 'success', durationMs: 120 })).toBe('✓ shell: ls -la (120 ms)');
    expect(renderToolCall({ iteration: 1, callId: 'b', tool: 'shell', summary: 'shell: false', outcome: 'error', durationMs: 3 })).toBe('✗ shell: false (3 ms) failed');
    expect(renderToolCall({ iteration: 1, callId: 'c', tool: 'write_file', summary: 'write_file: x', outcome: 'rejected' })).toBe('⊘ write_file: x (rejected)');
  });
});

describe('renderStatus', () => {
  it('shows phase, progress, what the run waits for and how to decide it', () => {
    const text = renderStatus(
      status({
        phase: 'waiting_approval',
        tasks: TASKS,
        pendingApprovals: [{ callId: 'toolu_1', tool: 'write_file', input: { path: 'a.md' }, requestedAt: '', iteration: 2, reason: 'write tools: approve', workflowId: 'run-1' }],
        recentToolCalls: [
          { iteration: 1, callId: 'u', tool: 'update_tasks', summary: 'update_tasks: {...}', outcome: 'success' },
          { iteration: 1, callId: 'l', tool: 'list_files', summary: 'list_files: .', outcome: 'success', durationMs: 9 },
        ],
      }),
    );
    expect(text).toContain('Phase: waiting_approval · iteration 2/40');
    expect(text).toContain('Progress: 3/5 tasks (60%)\n  ✅ [1] Find sources');
    expect(text).toContain('  toolu_1  write_file  {"path":"a.md"}\n    why: write tools: approve\n  Approve: npx agentctl approve run-1');
    // Task updates show as progress, not as tool lines.
    expect(text).toContain('Recent tool calls:\n  #1 ✓ list_files: . (9 ms)\n\nTokens: 1,234 in / 56 out');
  });
});

describe('renderStatus, trust and faults', () => {
  it('says when a run is unsandboxed, who may decide, and that it is waiting for the model API', () => {
    const text = renderStatus(
      status({
        sandboxed: false,
        approvers: ['ana'],
        signedDecisions: true,
        phase: 'waiting_for_model',
        modelWait: { attempt: 3, lastError: 'Model API answered 529', nextAttemptAt: '2026-11-23T10:00:04.000Z' },
        warnings: ['could not save "always"'],
      }),
    );
    expect(text).toContain('Sandbox: none — tool commands of this run are NOT sandboxed');
    expect(text).toContain('Approvers: ana (signed decisions required)');
    expect(text).toContain('Waiting for the model API: attempt 3 failed (Model API answered 529); next attempt at 2026-11-23T10:00:04.000Z');
    expect(text).toContain('Warning: could not save "always"');
    expect(renderStatus(status())).not.toContain('Sandbox:');
  });
});

describe('renderOutcome', () => {
  it('says a cancelled run was cancelled, and a failure\'s type and message', () => {
    expect(renderOutcome({ kind: 'cancelled', workflowId: 'r' })).toBe('🛑 Run r was cancelled.');
    expect(renderOutcome({ kind: 'failed', workflowId: 'r', type: 'UnknownAgent', message: 'Unknown agent "x". Agents on this worker: general.' })).toBe(
      '❌ Run r failed (UnknownAgent): Unknown agent "x". Agents on this worker: general.',
    );
  });

  it('ends a run at the cap with its task states', () => {
    const text = renderOutcome({
      kind: 'completed',
      workflowId: 'r',
      result: { status: 'max_iterations', iterations: 3, usage, tasks: TASKS, agent: 'general', workflowId: 'r', carryOver: { savedSummaries: [] } },
    });
    expect(text.split('\n')[0]).toBe('⏹  Run r stopped at the iteration cap (3) before the agent called complete_task.');
    expect(text).toContain('Progress: 3/5 tasks (60%)');
    expect(text).toContain('🔄 [4] Summarize');
  });

  it('shows the result\'s warnings, such as messages the run ended before delivering', () => {
    const warning = '1 message(s) sent to the run while it worked were not delivered: it reached its iteration cap (3) before its next model request.';
    const result = { status: 'max_iterations' as const, iterations: 3, usage, tasks: [], agent: 'general', workflowId: 'r', carryOver: { savedSummaries: [] }, warnings: [warning] };
    expect(renderOutcome({ kind: 'completed', workflowId: 'r', result }).split('\n')).toContain(`Warning: ${warning}`);
  });
});

describe('model-written text in the renderings', () => {
  const evil = 'ok\x1b]0;title\x07\x1b[2K\r\u202eevil\u009b';
  const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
  const pending = { callId: 'toolu_1', tool: `shell${evil}`, input: { command: evil }, requestedAt: '', iteration: 1, reason: 'ask', context: evil, workflowId: 'run-1' };
  const tasks = [{ id: '1', description: evil, status: 'in_progress' as const }];

  it('is shown escaped (terminalSafe), never obeyed by the terminal', () => {
    const shown = [
      renderPendingApproval(pending),
      renderQuestion({ question: evil, context: evil }),
      listPendingCalls([pending]),
      renderStatus(
        status({
          task: evil,
          tasks,
          progress: taskProgress(tasks),
          pendingApprovals: [pending],
          pendingQuestion: { callId: 'q', question: evil, context: evil, askedAt: '' },
          recentToolCalls: [{ iteration: 1, callId: 'a', tool: 'shell', summary: `shell: ${evil}`, outcome: 'error' }],
          completion: { status: 'partial', summary: evil },
          lastError: evil,
        }),
      ),
      renderDecision({ callId: 'a', tool: 'shell', decision: 'reject', approver: evil, reason: evil, decidedAt: '', via: 'signal' }),
      renderOutcome({ kind: 'failed', workflowId: 'run-1', message: evil }),
      renderOutcome({ kind: 'terminated', workflowId: 'run-1', reason: evil }),
    ];
    for (const text of shown) {
      expect(text).not.toMatch(RAW);
      expect(text).toContain('\\x1b');
    }
  });
});

describe('renderPendingApproval for a shell call', () => {
  it('lists the programs the analyzer found, those behind wrappers and -exec too, with the policy\'s note', () => {
    const command = 'find . -name canary -exec setsid rm -f {} \\;';
    const text = renderPendingApproval({
      callId: 'toolu_1',
      tool: 'shell',
      input: { command },
      requestedAt: '',
      iteration: 1,
      reason: 'the command is not fully understood (find -exec runs, deletes or writes for every file found; it is not analyzed), so a person decides',
      commands: [command, 'setsid rm -f {}', 'rm -f {}'],
      workflowId: 'run-1',
    });
    const listed = text.split('Programs it runs, as the analyzer read them:\n')[1]?.split('\n').slice(0, 3).map((line) => line.trim());
    expect(listed).toEqual([`- ${command}`, '- setsid rm -f {}', '- rm -f {}']);
    expect(text).toContain('Policy: the command is not fully understood (find -exec');
  });
});
