import { describe, expect, it } from 'vitest';
import { InboxBuilder, inboxItemFor, sortNewestFirst, type InboxEntry } from '../../../src/console/runs/inbox';
import { runStatus } from '../../support/status-factory';

const entry = (key: string, rootWorkflowId: string, since: string, extra: Partial<InboxEntry> = {}): InboxEntry =>
  ({ kind: 'question', key, rootWorkflowId, workflowId: rootWorkflowId, callId: key, agent: 'general', task: 't', since, question: 'q', ...extra }) as InboxEntry;

describe('sortNewestFirst', () => {
  it('puts the newest first but keeps a root run and its sub-agents together', () => {
    const sorted = sortNewestFirst([
      entry('old-root', 'root-a', '2026-01-01T00:00:01Z'),
      entry('other', 'root-b', '2026-01-01T00:00:02Z'),
      entry('child', 'root-a', '2026-01-01T00:00:03Z', { workflowId: 'root-a-child' }),
    ]);
    expect(sorted.map((e) => e.key)).toEqual(['child', 'old-root', 'other']);
  });
});

describe('inboxItemFor', () => {
  const approval = (approvers?: string[]) =>
    ({ ...entry('c1', 'r', '2026-01-01T00:00:00Z'), kind: 'approval', tool: 'shell', reason: 'r', arguments: { kind: 'json', text: '{}' }, approvers, signedDecisions: false }) as InboxEntry;

  it('lets anyone decide when the run names no approvers, and only the named ones otherwise', () => {
    expect(inboxItemFor(approval(), 'alice').canDecide).toBe(true);
    expect(inboxItemFor(approval(['alice', 'bo']), 'alice').canDecide).toBe(true);
    expect(inboxItemFor(approval(['bo']), 'alice')).toMatchObject({ canDecide: false, readOnlyReason: 'Only bo may decide this call; you are alice.' });
    expect(inboxItemFor(entry('q', 'r', '2026-01-01T00:00:00Z'), 'alice').canDecide).toBe(true);
  });
});

describe('InboxBuilder', () => {
  const call = { callId: 'toolu_1', tool: 'shell', input: { command: 'ls' }, requestedAt: '2026-01-01T00:00:00Z', iteration: 1, reason: 'shell: ask', workflowId: 'root/sub-1' };
  const question = { callId: 'toolu_2', question: 'Which?', askedAt: '2026-01-01T00:00:01Z', workflowId: 'root/sub-1' };

  it('keeps one entry per waiting call, taken from the waiting run\'s own report whichever run is read first', async () => {
    const root = runStatus({ workflowId: 'root', agent: 'coordinator', task: 'root task', pendingApprovals: [call], pendingQuestions: [question] });
    const child = runStatus({ workflowId: 'root/sub-1', agent: 'specialist', task: 'child task', pendingApprovals: [call], pendingQuestions: [question], approvers: ['bo'] });
    for (const order of [[root, child], [child, root]]) {
      const inbox = await new InboxBuilder(undefined).build(order.map((status) => ({ status, rootWorkflowId: 'root' })));
      expect(inbox).toEqual([
        expect.objectContaining({ kind: 'question', workflowId: 'root/sub-1', rootWorkflowId: 'root', agent: 'specialist', task: 'child task' }),
        expect.objectContaining({ kind: 'approval', workflowId: 'root/sub-1', rootWorkflowId: 'root', agent: 'specialist', task: 'child task', approvers: ['bo'] }),
      ]);
    }
  });

  it('renders an edited call again: the cache is keyed by run, call id and the arguments hash (issue 32, finding 3)', async () => {
    const builder = new InboxBuilder(undefined);
    const first = await builder.build([{ status: runStatus({ workflowId: 'root/sub-1', pendingApprovals: [call] }), rootWorkflowId: 'root' }]);
    const edited = { ...call, input: { command: 'eval "touch PWNED.txt"' } };
    const again = await builder.build([{ status: runStatus({ workflowId: 'root/sub-1', pendingApprovals: [edited] }), rootWorkflowId: 'root' }]);
    expect(JSON.stringify(first[0])).toContain('ls');
    expect(JSON.stringify(again[0])).toContain('PWNED.txt');
    expect(first[0]).toMatchObject({ argumentsHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(again[0]).toMatchObject({ argumentsHash: expect.not.stringMatching((first[0] as { argumentsHash: string }).argumentsHash) });
  });
});
